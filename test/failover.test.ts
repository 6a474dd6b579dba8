/**
 * Failover under a write load, on servers the test starts itself: a primary with a synchronous
 * standby (`synchronous_standby_names`), `apps/server` reaching the primary through the test's TCP
 * forwarder (the database's address), and six clients creating contacts, each write retried with
 * its own `Idempotency-Key` until it is acknowledged. The primary's postmaster is SIGKILLed mid-load,
 * the standby promoted and the address moved to it. Required: every request answers within 10 s
 * (none hangs), none answers 500, no retry is refused 409 for a key whose request died with its
 * connection, every acknowledged write is found afterwards, and none is there twice. The test
 * prints the seconds without an acknowledged write, the writes acknowledged and found. A delivery
 * worker on the same address resumes on the promoted standby and drains the outbox.
 *
 * Runs where PostgreSQL's server tools are installed (`pg_config --bindir`).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PgServer, postgresBinaries, startPrimary, startStandby } from "./support/pg-cluster.ts"
import {
  serverEnv,
  bootstrapToken,
  eventually,
  freePort,
  killAll,
  launch,
  launchServer,
  requestJson,
  sleep,
  workerMain
} from "./support/processes.ts"
import { startTcpForwarder, type TcpForwarder } from "./support/tcp-forwarder.ts"

const CLIENTS = 6
const REQUEST_DEADLINE_MS = 10_000

describe.runIf(postgresBinaries() !== undefined)("failover: the primary SIGKILLed under writes, its synchronous standby promoted", () => {
  let dir = ""
  let primary: PgServer | undefined
  let standby: PgServer | undefined
  let forwarder: TcpForwarder | undefined
  let base = ""
  let token = ""
  let workerHealth = ""

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-failover-"))
    primary = await startPrimary(["synchronous_standby_names = 'standby_1'", "synchronous_commit = on"])
    standby = await startStandby(primary, "standby_1")
    forwarder = await startTcpForwarder({ host: "127.0.0.1", port: primary.port })
    const port = await freePort()
    const env = serverEnv(dir, `postgres://postgres@127.0.0.1:${forwarder.port}/postgres`, port)
    await launchServer(env)
    workerHealth = `http://127.0.0.1:${await freePort()}`
    launch("worker", workerMain, [], { ...env, WASL_WORKER_HEALTH_PORT: new URL(workerHealth).port })
    token = await bootstrapToken(env, "Failover", "failover@example.test")
    base = `http://127.0.0.1:${port}`
  }, 180_000)

  afterAll(async () => {
    await killAll()
    await forwarder?.close()
    standby?.stop()
    primary?.stop()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("loses no acknowledged write, duplicates none, answers 503 (never 500, never hanging) while it switches", async () => {
    const statuses = new Map<string, number>()
    const count = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1)
    const acknowledged: Array<{ readonly email: string; readonly at: number }> = []
    let stopping = false
    let killedAt = 0

    /** One write, retried with its key until acknowledged (or the load ends). */
    const write = async (email: string) => {
      const key = `failover-${email}`
      while (true) {
        const started = Date.now()
        let status: number
        try {
          const response = await fetch(`${base}/api/contacts`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
            body: JSON.stringify({ firstname: "Load", email }),
            signal: AbortSignal.timeout(REQUEST_DEADLINE_MS)
          })
          await response.arrayBuffer()
          status = response.status
        } catch {
          status = Date.now() - started >= REQUEST_DEADLINE_MS ? -1 : 0
        }
        count(status === -1 ? "hung" : String(status))
        if (status === 201) return acknowledged.push({ email, at: Date.now() })
        if (stopping) return
        await sleep(100)
      }
    }
    const client = async (c: number) => {
      for (let i = 0; !stopping; i++) await write(`c${c}-${i}@example.test`)
    }
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)))

    await sleep(3_000)
    const before = acknowledged.length
    killedAt = Date.now()
    primary!.kill()
    await forwarder!.down()
    standby!.promote()
    // The promoted standby has the old primary's settings from its base backup: without a standby
    // of its own, it must not wait for a synchronous one, or every commit would wait forever.
    standby!.configure(["synchronous_standby_names = ''"])
    await forwarder!.up({ host: "127.0.0.1", port: standby!.port })
    await sleep(6_000)
    stopping = true
    await load

    const firstAfter = acknowledged.find((a) => a.at > killedAt)
    const unavailableSeconds = firstAfter === undefined ? Infinity : (firstAfter.at - killedAt) / 1000

    // Every acknowledged write is on the promoted standby, once.
    const found = new Map<string, number>()
    for (let page = 1; ; page++) {
      const response = await fetch(`${base}/api/contacts?per_page=100&page=${page}`, { headers: { authorization: `Bearer ${token}` } })
      const body = await response.json() as { data: ReadonlyArray<{ properties: { email: string } }> }
      for (const contact of body.data) found.set(contact.properties.email, (found.get(contact.properties.email) ?? 0) + 1)
      if (body.data.length < 100) break
    }
    const lost = acknowledged.filter((a) => !found.has(a.email))
    const duplicated = [...found.values()].filter((n) => n > 1).length
    console.log(
      `failover: ${before} writes acknowledged before the kill, ${acknowledged.length} in all; ` +
        `${unavailableSeconds.toFixed(1)} s without an acknowledged write; ${found.size} found after, ${lost.length} lost, ` +
        `${duplicated} duplicated; answers ${JSON.stringify(Object.fromEntries(statuses))}`
    )
    expect(before).toBeGreaterThan(0)
    expect(firstAfter, "writes go on once the standby is promoted").toBeDefined()
    expect(lost).toEqual([])
    expect(duplicated).toBe(0)
    expect(statuses.get("500") ?? 0).toBe(0)
    expect(statuses.get("hung") ?? 0).toBe(0)
    expect(statuses.get("409") ?? 0).toBe(0)
    // The worker's loops run on the promoted standby: it is ready, and the events of every write are fanned out.
    await eventually(async () => (await requestJson(workerHealth, "GET", "/health/ready")).status === 200, 30_000, "the worker is ready")
    await eventually(async () => {
      const metrics = await (await fetch(`${workerHealth}/metrics`)).text()
      return /^wasl_outbox_events(\{[^}]*\})? 0$/m.test(metrics)
    }, 30_000, "the outbox drains")
  }, 120_000)
})
