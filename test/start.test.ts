/**
 * `npm start` (apps/wasl) end to end, as separate processes over a real socket, on the embedded
 * database: first run, the data-directory lock, graceful SIGTERM, restart.
 *
 * Black box: this file imports nothing from the workspace; it spawns `apps/wasl/src/main.ts` and
 * `apps/cli/src/main.ts` and talks HTTP. The tests share one data directory and run in order
 * (each step builds on the previous one's state).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  cliMain,
  type Exit,
  exitWithin,
  FIRST_RUN,
  freePort,
  killAll,
  launch,
  type Launched,
  launchedProcesses,
  LISTENING,
  requestJson as request,
  waslMain
} from "./support/processes.ts"

// -----------------------------------------------------------------------------
// the service
// -----------------------------------------------------------------------------

const TOKEN = /^\d+\|[A-Za-z0-9]{40}$/

/** This file's data directory, made in `beforeAll`, removed in `afterAll`. */
let dataDir = ""
let lockFile = ""
const lockedMessage = (pid: number) =>
  `The embedded database at ${
    Path.resolve(dataDir)
  } is in use by another Wasl process (pid ${pid}). Stop it first or set DATABASE_URL.`

/** The environment of the apps: this file's data directory, embedded database, loopback only. */
const appEnv = (port?: number): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, WASL_DATA_DIR: dataDir, HOST: "127.0.0.1" }
  if (port === undefined) delete env.PORT
  else env.PORT = String(port)
  delete env.DATABASE_URL
  return env
}

const startWasl = async (name: string) => {
  const port = await freePort()
  const wasl = launch(name, waslMain, [], appEnv(port))
  const match = await wasl.waitForStdout(LISTENING, 60_000)
  expect(Number(match[1])).toBe(port)
  return { wasl, port, baseUrl: `http://127.0.0.1:${port}` }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "")

const isJsonObjectLine = (line: string) => {
  try {
    const value: unknown = JSON.parse(line)
    return typeof value === "object" && value !== null && !Array.isArray(value)
  } catch {
    return false
  }
}

// -----------------------------------------------------------------------------
// tests
// -----------------------------------------------------------------------------

describe("npm start (apps/wasl) on the embedded database", () => {
  let first: Launched
  let baseUrl: string
  let credentials: { readonly owner: string; readonly password: string; readonly token: string }
  let restart: Launched | undefined
  /** How the first start and the restart ended on SIGTERM. */
  const sigtermExits: Array<Exit> = []

  beforeAll(async () => {
    dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-start-"))
    lockFile = Path.join(dataDir, "wasl.lock")
    const started = await startWasl("wasl (first start)")
    first = started.wasl
    baseUrl = started.baseUrl
    const block = FIRST_RUN.exec(first.stdout())
    if (block === null) throw new Error(`no first-run block\n${first.output()}`)
    credentials = { owner: block[1]!, password: block[2]!, token: block[3]! }
  }, 90_000)

  afterAll(async () => {
    await killAll()
    if (dataDir !== "") Fs.rmSync(dataDir, { recursive: true, force: true })
  }, 30_000)

  it("prints the first-run block once, on stdout, before it listens", () => {
    expect(credentials.owner).toBe("admin@localhost")
    expect(credentials.password.length).toBeGreaterThanOrEqual(12)
    expect(credentials.token).toMatch(TOKEN)
    const stdout = first.stdout()
    expect(stdout.match(/first account created/g)).toHaveLength(1)
    expect(stdout.indexOf("first account created")).toBeLessThan(stdout.search(LISTENING))
    // The listening line is a structured (JSON) log line.
    const listening = lines(stdout).find((line) => LISTENING.test(line))!
    expect(isJsonObjectLine(listening)).toBe(true)
    expect(JSON.parse(listening).message).toMatch(/^Wasl is listening on http:\/\/\S+:\d+$/)
    // The lock names this process, and only its owner may read it (it holds the database's password).
    expect(JSON.parse(Fs.readFileSync(lockFile, "utf8")).pid).toBe(first.child.pid)
    expect(Fs.statSync(lockFile).mode & 0o777).toBe(0o600)
  })

  it("GET /api/me with the printed token answers 200 with the owner", async () => {
    const me = await request(baseUrl, "GET", "/api/me", { token: credentials.token })
    expect(me.status, me.text).toBe(200)
    expect(me.body.email).toBe("admin@localhost")
    expect(me.body.account.plan).toBe("business")
  })

  it("is ready: the database and the worker's loops (GET /health/ready, no credentials)", async () => {
    const ready = await request(baseUrl, "GET", "/health/ready", {})
    expect([ready.status, ready.body]).toEqual([200, { status: "ok" }])
  })

  it("POST /api/auth/login with the printed password answers 200", async () => {
    const login = await request(baseUrl, "POST", "/api/auth/login", {
      body: { email: credentials.owner, password: credentials.password }
    })
    expect(login.status, login.text).toBe(200)
    expect(login.body.data.email).toBe("admin@localhost")
    const wrong = await request(baseUrl, "POST", "/api/auth/login", {
      body: { email: credentials.owner, password: `${credentials.password}x` }
    })
    expect(wrong.status, wrong.text).toBe(422)
  })

  it("a second npm start on the same data directory exits 1 at once, naming the holder", async () => {
    const port = await freePort()
    const startedAt = Date.now()
    const second = launch("wasl (second, same data dir)", waslMain, [], appEnv(port))
    const exit = await exitWithin(second, 20_000)
    const elapsed = Date.now() - startedAt
    expect(exit, second.output()).toEqual({ code: 1, signal: null })
    expect(elapsed).toBeLessThan(10_000)
    expect(second.stdout() + second.stderr()).toContain(lockedMessage(first.child.pid!))
    expect(second.stdout()).not.toMatch(LISTENING)
    // The refused process left the holder alone: same lock, still serving.
    expect(JSON.parse(Fs.readFileSync(lockFile, "utf8")).pid).toBe(first.child.pid)
    expect((await request(baseUrl, "GET", "/api/me", { token: credentials.token })).status).toBe(200)
  }, 30_000)

  it("the CLI on the held data directory goes through the running server's database port, and says so", async () => {
    const cli = launch("cli migrate (held data dir)", cliMain, ["migrate"], appEnv())
    const exit = await exitWithin(cli, 60_000)
    expect(exit, cli.output()).toEqual({ code: 0, signal: null })
    // The server migrated on start: nothing left to apply.
    expect(cli.stdout()).toBe(`${JSON.stringify({ migrated: [] })}\n`)
    expect(lines(cli.stderr())).toEqual([
      `Using the embedded database of the running Wasl (pid ${first.child.pid}) at 127.0.0.1:${
        JSON.parse(Fs.readFileSync(lockFile, "utf8")).server.port
      }.`
    ])
    expect(first.isRunning()).toBe(true)
    expect(JSON.parse(Fs.readFileSync(lockFile, "utf8")).pid).toBe(first.child.pid)
  }, 90_000)

  it("SIGTERM stops it within seconds and releases the lock", async () => {
    first.child.kill("SIGTERM")
    sigtermExits.push(await exitWithin(first, 10_000))
    expect(Fs.existsSync(lockFile)).toBe(false)
  }, 20_000)

  it("a restart on the same data directory prints no first-run block; the old token and password still work", async () => {
    const { baseUrl: url, wasl } = await startWasl("wasl (restart)")
    restart = wasl
    expect(wasl.stdout()).not.toContain("first account created")
    expect(wasl.stdout()).not.toContain("password:")
    const me = await request(url, "GET", "/api/me", { token: credentials.token })
    expect(me.status, me.text).toBe(200)
    expect(me.body.email).toBe("admin@localhost")
    const login = await request(url, "POST", "/api/auth/login", {
      body: { email: credentials.owner, password: credentials.password }
    })
    expect(login.status, login.text).toBe(200)
    wasl.child.kill("SIGTERM")
    sigtermExits.push(await exitWithin(wasl, 10_000))
    expect(Fs.existsSync(lockFile)).toBe(false)
  }, 90_000)

  it("exits with code 0 on SIGTERM (a clean stop: in-flight work finishes or is released)", () => {
    expect(sigtermExits, `${first.output()}\n${restart === undefined ? "" : restart.output()}`).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null }
    ])
  })

  it("a running server's stdout is the first-run block plus JSON log lines only", () => {
    for (const p of [first, restart]) {
      if (p === undefined) continue
      const stdout = p === first ? p.stdout().replace(FIRST_RUN, "") : p.stdout()
      const other = lines(stdout).filter((line) => !isJsonObjectLine(line) && !/^Keep them\b/.test(line))
      expect(other, `${p.name}: non-JSON stdout lines`).toEqual([])
    }
  })

  it("the password and token appear in no output but the first-run block", () => {
    const secret = credentials.token.split("|")[1]!
    const hits: Array<{ readonly where: string; readonly line: string }> = []
    for (const p of launchedProcesses()) {
      for (const [stream, text] of [["stdout", p.stdout()], ["stderr", p.stderr()]] as const) {
        for (const line of lines(text)) {
          if (line.includes(credentials.password) || line.includes(secret)) hits.push({ where: `${p.name} ${stream}`, line })
        }
      }
    }
    // Exactly the block's two lines, on the first start's stdout; never inside a (JSON) log line.
    expect(hits.map((hit) => hit.where)).toEqual([`${first.name} stdout`, `${first.name} stdout`])
    expect(hits[0]!.line).toMatch(new RegExp(`^\\s*password:\\s*${escape(credentials.password)}$`))
    expect(hits[1]!.line).toMatch(new RegExp(`^\\s*token:\\s*${escape(credentials.token)}$`))
    expect(hits.some((hit) => isJsonObjectLine(hit.line))).toBe(false)
  })
})
