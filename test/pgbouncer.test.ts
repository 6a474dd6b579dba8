/**
 * Wasl behind Debian's pgbouncer in transaction mode: `apps/server` and `apps/worker` with
 * `DATABASE_URL` on pgbouncer (which hands each transaction to any of its few server connections)
 * and `WASL_DATABASE_LISTEN_URL` on PostgreSQL itself, for the one session per process that
 * listens. They migrate, write and read concurrently through it (no named prepared statement
 * needs a connection of its own), idempotent writes replay, and a revoked token is refused at once:
 * the cache's invalidation arrives on the direct session.
 *
 * Runs when TEST_DATABASE_URL is set and pgbouncer is installed.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Pgbouncer, pgbouncerBinary, startPgbouncer } from "./support/pgbouncer.ts"
import {
  apiClient,
  serverEnv,
  bootstrapToken,
  eventually,
  freePort,
  killAll,
  launch,
  launchServer,
  type Reply,
  requestJson,
  scratchDatabase,
  testPostgresUrl,
  workerMain
} from "./support/processes.ts"

describe.runIf(testPostgresUrl() !== undefined && pgbouncerBinary() !== undefined)("behind pgbouncer in transaction mode", () => {
  let dir = ""
  let database: { url: string; drop: () => Promise<void> } | undefined
  let bouncer: Pgbouncer | undefined
  let base = ""
  let token = ""
  let workerHealth = ""
  let api: (method: string, path: string, body?: unknown) => Promise<Reply> = () => Promise.reject(new Error("not started"))

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-pgbouncer-"))
    database = await scratchDatabase(testPostgresUrl()!)
    const direct = new URL(database.url)
    bouncer = await startPgbouncer({ host: direct.hostname, port: Number(direct.port || 5432) }, "transaction")
    const pooled = new URL(database.url)
    pooled.hostname = "127.0.0.1"
    pooled.port = String(bouncer.port)
    const port = await freePort()
    workerHealth = `http://127.0.0.1:${await freePort()}`
    const env = serverEnv(dir, pooled.toString(), port, { WASL_DATABASE_LISTEN_URL: database.url })
    await launchServer(env)
    launch("worker", workerMain, [], { ...env, WASL_WORKER_HEALTH_PORT: new URL(workerHealth).port })
    token = await bootstrapToken(env, "Pooled", "pooled@example.test")
    base = `http://127.0.0.1:${port}`
    api = apiClient(base, token)
  }, 180_000)

  afterAll(async () => {
    await killAll()
    await bouncer?.stop()
    await database?.drop()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("writes and reads concurrently through it, and replays an idempotent write", async () => {
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api("POST", "/api/contacts", { firstname: `Pooled ${i}`, email: `pooled.${i}@example.test` }))
    )
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201))
    const listed = await Promise.all(Array.from({ length: 20 }, (_, i) => api("GET", `/api/contacts?per_page=5&page=${1 + (i % 8)}`)))
    expect(listed.map((r) => r.status)).toEqual(listed.map(() => 200))
    expect(listed[0]!.body.meta.total).toBe(40)
    const batch = await api("POST", "/api/contacts/batch/create", {
      inputs: Array.from({ length: 10 }, (_, i) => ({ properties: { firstname: `Batch ${i}` } }))
    })
    expect(batch.status, batch.text).toBe(201)
    const once = (key: string) =>
      fetch(`${base}/api/deals`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ deal_name: "Pooled deal" })
      }).then(async (r) => ({ status: r.status, id: ((await r.json()) as { data: { _id: string } }).data._id }))
    const first = await once("pooled-1")
    const again = await once("pooled-1")
    expect([first.status, again.status]).toEqual([201, 201])
    expect(again.id).toBe(first.id)
  }, 60_000)

  it("refuses a revoked token at once: the cache hears its invalidation on the direct session", async () => {
    const made = await api("POST", "/api/tokens", { name: "short-lived", abilities: ["*"] })
    expect(made.status, made.text).toBe(201)
    const other = apiClient(base, made.body.token)
    expect((await other("GET", "/api/me")).status).toBe(200)
    expect((await other("GET", "/api/me")).status).toBe(200)
    expect((await api("DELETE", `/api/tokens/${made.body.data.id}`)).status).toBe(200)
    await eventually(async () => (await other("GET", "/api/me")).status === 401, 3_000, "the revoked token is refused")
  }, 60_000)

  it("runs the worker's loops through it", async () => {
    await eventually(async () => (await requestJson(workerHealth, "GET", "/health/ready")).status === 200, 30_000, "the worker is ready")
  }, 60_000)
})
