/**
 * The database going away under a running `apps/server`, as a primary that dies or fails over: the
 * server reaches PostgreSQL through a TCP forwarder the test takes down (every connection cut, new
 * ones refused) and brings back. Meanwhile requests answer 503 with `Retry-After` within a few
 * seconds — never 500, never hanging; once it is back the pool reconnects by itself, and a write
 * retried with its `Idempotency-Key` is written once, not refused as still in flight.
 *
 * Runs when TEST_DATABASE_URL is set.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTcpForwarder, type TcpForwarder } from "./support/tcp-forwarder.ts"
import {
  serverEnv,
  bootstrapToken,
  eventually,
  freePort,
  killAll,
  launchServer,
  requestJson,
  scratchDatabase,
  testPostgresUrl
} from "./support/processes.ts"

describe.runIf(testPostgresUrl() !== undefined)("the database going away under apps/server", () => {
  let dir = ""
  let database: { url: string; drop: () => Promise<void> } | undefined
  let forwarder: TcpForwarder | undefined
  let base = ""
  let token = ""
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-db-down-"))
    database = await scratchDatabase(testPostgresUrl()!)
    const direct = new URL(database.url)
    forwarder = await startTcpForwarder({ host: direct.hostname, port: Number(direct.port || 5432) })
    const through = new URL(database.url)
    through.hostname = "127.0.0.1"
    through.port = String(forwarder.port)
    const port = await freePort()
    const env = serverEnv(dir, through.toString(), port)
    await launchServer(env)
    token = await bootstrapToken({ ...env, DATABASE_URL: database.url }, "Outage", "outage@example.test")
    base = `http://127.0.0.1:${port}`
  }, 180_000)

  afterAll(async () => {
    await killAll()
    await forwarder?.close()
    await database?.drop()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("answers 503 with Retry-After while it is away, and recovers on its own once it is back", async () => {
    expect((await call("GET", "/api/contacts")).status).toBe(200)
    await forwarder!.down()

    const started = Date.now()
    const listed = await call("GET", "/api/contacts")
    expect(listed.status).toBe(503)
    expect(listed.headers.get("retry-after")).toBe("2")
    expect(await listed.json()).toEqual({ message: "The service is unavailable for a moment. Retry shortly." })
    const write = { firstname: "Retried", email: "retried@example.test" }
    const key = { "idempotency-key": "outage-write-1" }
    expect((await call("POST", "/api/contacts", write, key)).status).toBe(503)
    expect(Date.now() - started).toBeLessThan(10_000)
    expect((await requestJson(base, "GET", "/health/ready")).status).toBe(503)

    await forwarder!.up()
    await eventually(async () => (await call("GET", "/api/contacts")).status === 200, 15_000, "lists answer again")
    // The write that never reached the database is written by its retry, once.
    const retried = await call("POST", "/api/contacts", write, key)
    expect(retried.status).toBe(201)
    const again = await call("POST", "/api/contacts", write, key)
    expect(again.status).toBe(201)
    const idOf = async (response: Response) => ((await response.json()) as { data: { _id: string } }).data._id
    expect(await idOf(again)).toBe(await idOf(retried))
    const found = await (await call("GET", `/api/contacts?search=retried%40example.test`)).json() as { data: ReadonlyArray<unknown> }
    expect(found.data).toHaveLength(1)
  }, 90_000)
})
