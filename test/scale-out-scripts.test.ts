/**
 * The README's scale-out commands, `npm run server` (the HTTP service alone) and `npm run worker`
 * (the delivery worker alone), run as a user runs them: through npm, which builds first and starts
 * the app on the pinned Node whatever `node` the shell has, on a scratch database of
 * TEST_DATABASE_URL. Each answers its readiness route. The two run one after the other, so that
 * their builds do not write the same files at once.
 *
 * Runs only when TEST_DATABASE_URL is set (the embedded database admits one process).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { root } from "./support/apps.ts"
import {
  eventually,
  exitWithin,
  freePort,
  killAll,
  type Launched,
  LISTENING,
  npmRun,
  requestJson,
  scratchDatabase,
  testPostgresUrl
} from "./support/processes.ts"

/** The shell's PATH without the repository's `node_modules/.bin`, which holds the pinned Node. */
const userPath = (process.env.PATH ?? "").split(Path.delimiter).filter((dir) => !Path.resolve(dir).startsWith(root)).join(Path.delimiter)

/**
 * SIGTERM to npm and the app together, as Ctrl-C in a terminal signals its whole group: the app
 * stops within seconds, with no error; npm ends with the app's code 0 or re-raises the signal.
 */
const expectStopsOnSigterm = async (p: Launched) => {
  p.kill("SIGTERM")
  const exit = await exitWithin(p, 20_000)
  expect(exit.code === 0 || exit.signal === "SIGTERM", `${JSON.stringify(exit)}\n${p.output()}`).toBe(true)
  expect(p.stdout() + p.stderr()).not.toMatch(/"level":"(ERROR|FATAL)"|Wasl stopped:/)
}

describe.runIf(testPostgresUrl() !== undefined)("npm run server and npm run worker on PostgreSQL", () => {
  let dir = ""
  let database: { url: string; drop: () => Promise<void> } | undefined
  let env: NodeJS.ProcessEnv = {}

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-scale-out-"))
    database = await scratchDatabase(testPostgresUrl()!)
    env = {
      ...process.env,
      PATH: userPath,
      DATABASE_URL: database.url,
      WASL_DATA_DIR: Path.join(dir, "data"),
      WASL_SECRET_KEY: "7".repeat(64),
      HOST: "127.0.0.1"
    }
  }, 60_000)

  afterAll(async () => {
    await killAll()
    await database?.drop()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("npm run server starts the HTTP service on the pinned Node and answers GET /health/ready; SIGTERM stops it", async () => {
    const port = await freePort()
    const server = npmRun("npm run server", "server", { ...env, PORT: String(port) })
    await server.waitForStdout(LISTENING, 300_000)
    const ready = await requestJson(`http://127.0.0.1:${port}`, "GET", "/health/ready")
    expect([ready.status, ready.body], server.output()).toEqual([200, { status: "ok" }])
    await expectStopsOnSigterm(server)
  }, 360_000)

  it("npm run worker starts the delivery worker on the pinned Node and answers its GET /health/ready; SIGTERM stops it", async () => {
    const port = await freePort()
    const worker = npmRun("npm run worker", "worker", { ...env, WASL_WORKER_HEALTH_PORT: String(port) })
    await worker.waitForStdout(/Wasl delivery worker started/, 300_000)
    const url = `http://127.0.0.1:${port}`
    const live = await requestJson(url, "GET", "/health/live")
    expect(live.status, worker.output()).toBe(200)
    // Ready once each of its loops has made a first pass.
    await eventually(async () => (await requestJson(url, "GET", "/health/ready")).status === 200, 10_000, "the worker is ready")
    await expectStopsOnSigterm(worker)
  }, 360_000)
})
