/**
 * Read replicas (`WASL_DATABASE_READ_URL`) on servers the test starts itself: a primary and a
 * streaming standby (`initdb`, `pg_basebackup -R`) on loopback ports, and `apps/server` on both.
 * A client reads its own writes whatever the standby's lag: record lists read on the standby once
 * it has replayed the primary's WAL as far as it was when the read began, else on the primary —
 * and `wasl_database_reads_total` says where each ran. A standby held back by
 * `recovery_min_apply_delay` is skipped, one that is down is skipped within a bounded time. A
 * worker on the same settings reads an export's batches there.
 *
 * Runs where PostgreSQL's server tools are installed (`pg_config --bindir`).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PgServer, postgresBinaries, startPrimary, startStandby } from "./support/pg-cluster.ts"
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
  workerMain
} from "./support/processes.ts"

/** The count of `wasl_database_reads_total` with these labels, from a /metrics scrape. */
const readsCounted = (metrics: string, target: string, reason: string): number => {
  let total = 0
  for (const line of metrics.split("\n")) {
    if (!line.startsWith("wasl_database_reads_total{")) continue
    if (!line.includes(`target="${target}"`) || !line.includes(`reason="${reason}"`)) continue
    total += Number(line.slice(line.lastIndexOf(" ") + 1))
  }
  return total
}

describe.runIf(postgresBinaries() !== undefined)("read replicas: lists on a caught-up standby, else on the primary", () => {
  let dir = ""
  let primary: PgServer | undefined
  let standby: PgServer | undefined
  let base = ""
  let token = ""
  let workerHealth = ""
  let api: (method: string, path: string, body?: unknown) => Promise<Reply> = () => Promise.reject(new Error("not started"))
  const reads = async (target: string, reason: string) => readsCounted((await api("GET", "/metrics")).text, target, reason)
  /** Creates a contact and lists by its email at once: the list must hold it. */
  const createThenList = async (tag: string) => {
    const email = `${tag}@example.test`
    const created = await api("POST", "/api/contacts", { firstname: tag, email })
    expect(created.status, created.text).toBe(201)
    const listed = await api("GET", `/api/contacts?search=${encodeURIComponent(email)}`)
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body.data.map((c: { properties: { email: string } }) => c.properties.email)).toEqual([email])
  }

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-replicas-"))
    primary = await startPrimary()
    standby = await startStandby(primary, "replica_1")
    const port = await freePort()
    const env = serverEnv(dir, primary.url, port, { WASL_DATABASE_READ_URL: standby.url })
    await launchServer(env)
    workerHealth = `http://127.0.0.1:${await freePort()}`
    launch("worker", workerMain, [], { ...env, WASL_WORKER_HEALTH_PORT: new URL(workerHealth).port })
    token = await bootstrapToken(env, "Replicas", "replicas@example.test")
    base = `http://127.0.0.1:${port}`
    api = apiClient(base, token)
  }, 180_000)

  afterAll(async () => {
    await killAll()
    standby?.stop()
    primary?.stop()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("a list right after each create holds the record; lists run on the standby once it has caught up", async () => {
    for (let i = 0; i < 20; i++) await createThenList(`fresh-${i}`)
    // Once the standby has replayed them (nothing else being written), the lists run there.
    const before = await reads("replica", "caught_up")
    await eventually(async () => {
      expect((await api("GET", "/api/contacts?per_page=5")).status).toBe(200)
      return (await reads("replica", "caught_up")) > before
    }, 10_000, "a list runs on the standby")
  }, 60_000)

  it("an export's batches read on the caught-up standby (the worker's metrics say so), its file complete", async () => {
    const asked = await api("POST", "/api/contacts/exports", { properties: ["email"] })
    expect(asked.status, asked.text).toBe(202)
    await eventually(async () => (await api("GET", `/api/exports/${asked.body.data._id}`)).body.data.status === "completed", 30_000, "the export completes")
    const file = await fetch(`${base}/api/exports/${asked.body.data._id}/download`, { headers: { authorization: `Bearer ${token}` } })
    expect((await file.text()).trim().split("\n")).toHaveLength(1 + 20)
    const workerMetrics = await (await fetch(`${workerHealth}/metrics`)).text()
    expect(readsCounted(workerMetrics, "replica", "caught_up")).toBeGreaterThan(0)
  }, 60_000)

  it("a standby held back by recovery_min_apply_delay is skipped: the lists read on the primary and see each write", async () => {
    standby!.configure(["recovery_min_apply_delay = '10min'"])
    const before = await reads("primary", "lagging")
    for (let i = 0; i < 5; i++) await createThenList(`delayed-${i}`)
    expect(await reads("primary", "lagging")).toBeGreaterThanOrEqual(before + 5)
  }, 60_000)

  it("a standby that is down is skipped within a bounded time, and left alone a while", async () => {
    standby!.crash()
    const started = Date.now()
    await createThenList("standby-down")
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(await reads("primary", "unavailable")).toBeGreaterThanOrEqual(1)
    // Resting: the next lists go straight to the primary.
    const t0 = Date.now()
    for (let i = 0; i < 5; i++) expect((await api("GET", "/api/contacts?per_page=5")).status).toBe(200)
    expect(Date.now() - t0).toBeLessThan(2_000)
  }, 60_000)
})
