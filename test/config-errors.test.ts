/**
 * A bad setting stops every app before it touches the database: `npm start` (apps/wasl), the
 * HTTP server alone (apps/server) and the worker alone (apps/worker) exit 1 with one
 * `wasl: NAME: problem` line on stderr (the accepted form, no stack), and leave a fresh data
 * directory uncreated, or a fresh PostgreSQL database without a single table (no migrations
 * table). A good value in either duration syntax starts them.
 *
 * Black box: this file imports nothing from the workspace; it spawns the apps.
 */
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  databaseTables,
  exitWithin,
  freePort,
  killAll,
  launch,
  runToEnd,
  scratchDatabase,
  serverMain,
  testPostgresUrl,
  waslMain,
  workerMain
} from "./support/processes.ts"

const DURATION_LINE = (name: string, value: string) =>
  `wasl: ${name}: expected a duration such as 500ms, 2s, 5m, 1h, 1d or 60 seconds, received "${value}"`

interface Refusal {
  readonly env: Record<string, string>
  readonly line: string
}

const EVERY_APP: ReadonlyArray<Refusal> = [
  { env: { WASL_DELIVERY_TIMEOUT: "soon" }, line: DURATION_LINE("WASL_DELIVERY_TIMEOUT", "soon") },
  {
    env: { WASL_PUBLIC_URL: "crm.example.com" },
    line: "wasl: WASL_PUBLIC_URL: expected an absolute http(s) URL without query or fragment, such as https://crm.example.com"
  },
  {
    env: { WASL_LOG_LEVEL: "loud" },
    line: `wasl: WASL_LOG_LEVEL: expected one of trace, debug, info, warn, error, fatal, none, received "loud"`
  }
]

const HTTP_APPS: ReadonlyArray<Refusal> = [
  {
    env: { WASL_REQUEST_TIMEOUT: "0s" },
    line: `wasl: WASL_REQUEST_TIMEOUT: expected a duration from 1s to 1d, such as 30s, received "0s"`
  },
  {
    env: { WASL_RATE_LIMIT: "lots" },
    line: `wasl: WASL_RATE_LIMIT: expected <requests>/<duration> (600/1m), <requests> per minute, or 0 for no limit, received "lots"`
  },
  { env: { WASL_STREAMS_PER_USER: "0" }, line: `wasl: WASL_STREAMS_PER_USER: expected a number of streams from 1 to 1000, received "0"` }
]

const APPS = [
  { name: "npm start (apps/wasl)", main: waslMain, refusals: [...EVERY_APP, ...HTTP_APPS] },
  { name: "apps/server", main: serverMain, refusals: [...EVERY_APP, ...HTTP_APPS] },
  { name: "apps/worker", main: workerMain, refusals: EVERY_APP }
] as const

let scratch = ""

beforeAll(() => {
  scratch = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-config-"))
})

afterAll(async () => {
  await killAll()
  if (scratch !== "") Fs.rmSync(scratch, { recursive: true, force: true })
}, 30_000)

/** The base environment: the given database, a data directory that does not exist yet. */
const appEnv = (dataDir: string, databaseUrl?: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, WASL_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0" }
  for (const name of Object.keys(env)) if (name.startsWith("WASL_") && name !== "WASL_DATA_DIR") delete env[name]
  if (databaseUrl === undefined) delete env.DATABASE_URL
  else env.DATABASE_URL = databaseUrl
  return env
}

const expectRefused = async (main: string, name: string, env: NodeJS.ProcessEnv, line: string) => {
  const result = await runToEnd(name, main, [], env, 30_000)
  const shown = `exit ${result.code}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`
  expect(result.code, shown).toBe(1)
  expect(result.stdout, shown).toBe("")
  expect(result.stderr, shown).toBe(`${line}\n`)
}

describe.each(APPS)("$name with a bad setting", ({ main, name, refusals }) => {
  it.each(refusals)("on the embedded database: $env exits 1 with one line, no data directory made", async ({ env, line }) => {
    const dataDir = Path.join(scratch, `data-${Math.random().toString(16).slice(2)}`)
    await expectRefused(main, name, { ...appEnv(dataDir), ...env }, line)
    expect(Fs.existsSync(dataDir)).toBe(false)
  }, 40_000)

  it.skipIf(testPostgresUrl() === undefined)(
    "on PostgreSQL: WASL_DELIVERY_TIMEOUT=soon exits 1 with one line, the database left without a table",
    async () => {
      const database = await scratchDatabase(testPostgresUrl()!)
      try {
        const dataDir = Path.join(scratch, `unused-${Math.random().toString(16).slice(2)}`)
        await expectRefused(
          main,
          name,
          { ...appEnv(dataDir, database.url), WASL_DELIVERY_TIMEOUT: "soon" },
          DURATION_LINE("WASL_DELIVERY_TIMEOUT", "soon")
        )
        expect(await databaseTables(database.url)).toEqual([])
        expect(Fs.existsSync(dataDir)).toBe(false)
      } finally {
        await database.drop()
      }
    },
    60_000
  )
})

/** Sends a JSON body's first byte to `port`, then nothing; answers what the server sent before it closed the connection. */
const stalledBody = (port: number): Promise<string> =>
  new Promise((resolve, reject) => {
    let received = ""
    const socket = Net.connect({ port, host: "127.0.0.1" }, () =>
      socket.write("POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"))
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")))
    socket.on("close", () => resolve(received))
    socket.on("error", reject)
  })

describe("apps/server with good settings", () => {
  it("starts with durations in either syntax (WASL_OTP_COOLDOWN=2s, 60 seconds, 10/15m), and applies them", async () => {
    const port = await freePort()
    const server = launch("apps/server (good settings)", serverMain, [], {
      ...appEnv(Path.join(scratch, "good")),
      PORT: String(port),
      WASL_OTP_COOLDOWN: "2s",
      WASL_DELIVERY_TIMEOUT: "60 seconds",
      WASL_RETRY_DELAYS: "0s,500ms,2 seconds,5m,1h,1d",
      WASL_RETENTION_IDEMPOTENCY: "1 hour",
      WASL_RATE_LIMIT_LOGIN: "10/15m",
      WASL_STREAMS_PER_USER: "3",
      WASL_REQUEST_TIMEOUT: "1 second"
    })
    await server.waitForStdout(/Wasl is listening/, 60_000)
    // A body that stops coming is answered 408 once WASL_REQUEST_TIMEOUT has passed.
    const started = Date.now()
    const answer = await stalledBody(port)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(answer).toMatch(/^HTTP\/1\.1 408 [^]*\r\n\r\n\{"message":"The request was not received in time\."\}$/)
    server.child.kill("SIGTERM")
    expect(await exitWithin(server, 20_000)).toEqual({ code: 0, signal: null })
  }, 90_000)
})
