/**
 * Separate worker processes against one PostgreSQL (any number of each, nothing sent twice): apps/server
 * (HTTP only) and two apps/worker processes on a scratch database of TEST_DATABASE_URL, with the
 * local HTTPS receiver.
 *
 * - two workers deliver a burst of events exactly once between them (SKIP LOCKED claims);
 * - SIGKILL of one worker mid-burst loses nothing: the other takes over its leased work when
 *   the leases run out, each event still under its one delivery id.
 *
 * Runs only when TEST_DATABASE_URL is set (the embedded database admits one process).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  apiClient,
  cliMain,
  exitWithin,
  freePort,
  killAll,
  launch,
  type Launched,
  scratchDatabase,
  serverMain,
  sleep,
  testPostgresUrl,
  workerMain
} from "./support/processes.ts"
import { RECEIVER_CA_FILE, type ReceivedRequest, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.ts"

const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/
const WORKER_STARTED = /Wasl delivery worker started/

const deliveryId = (r: ReceivedRequest) => String(r.headers["x-wasl-delivery"] ?? "")
const contactOf = (r: ReceivedRequest) => r.body.contact.properties._id as string

describe.runIf(testPostgresUrl() !== undefined)("worker processes against one PostgreSQL", () => {
  let dir = ""
  let database: { url: string; drop: () => Promise<void> } | undefined
  let receiver: WebhookReceiver
  let api: ReturnType<typeof apiClient>
  let env: NodeJS.ProcessEnv
  const workers: Array<Launched> = []

  const startWorker = async (name: string) => {
    const worker = launch(name, workerMain, [], env)
    await worker.waitForStdout(WORKER_STARTED, 60_000)
    workers.push(worker)
    return worker
  }

  /** Creates `count` contacts with 8 concurrent clients; returns the ids of those that committed. */
  const burst = async (count: number, label: string, stop: () => boolean = () => false) => {
    const committed: Array<string> = []
    let next = 0
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < count && !stop()) {
        const i = next++
        const reply = await api("POST", "/api/contacts", { firstname: `${label} ${i}` })
        expect(reply.status, reply.text).toBe(201)
        committed.push(reply.body.data.properties._id)
      }
    }))
    return committed
  }

  const subscribe = async (path: string) => {
    const created = await api("POST", "/api/account/webhooks", { URL: receiver.url(path), events: ["contact-created"] })
    expect(created.status, created.text).toBe(201)
    receiver.setSecret(path, created.body.data.secret)
    expect((await api("POST", `/api/account/webhooks/${created.body.data.id}/validate`)).status).toBe(200)
    expect((await api("PUT", `/api/account/webhooks/${created.body.data.id}/activate`, { is_active: true })).status).toBe(200)
  }

  const delivered = (path: string) => receiver.received(path).filter((r) => r.body?.event === "contact-created")

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-workers-"))
    database = await scratchDatabase(testPostgresUrl()!)
    receiver = await startWebhookReceiver()
    const port = await freePort()
    env = {
      ...process.env,
      DATABASE_URL: database.url,
      WASL_DATA_DIR: Path.join(dir, "data"),
      WASL_SECRET_KEY: "7".repeat(64),
      HOST: "127.0.0.1",
      PORT: String(port),
      WASL_WEBHOOK_ALLOW_PRIVATE: "true",
      WASL_WEBHOOK_CA_FILE: RECEIVER_CA_FILE,
      WASL_DELIVERY_TIMEOUT: "5s",
      WASL_MAIL_OUTBOX: Path.join(dir, "mail.jsonl"),
      // The burst writes as fast as the server answers, with one token: no request rate limit.
      WASL_RATE_LIMIT: "0"
    }
    const server = launch("server", serverMain, [], env)
    await server.waitForStdout(LISTENING, 60_000)
    const cli = launch("cli bootstrap", cliMain, [
      "bootstrap", "--account", "Workers", "--email", "workers@example.test", "--password", "a long password", "--plan", "business"
    ], env)
    const exit = await exitWithin(cli, 60_000)
    expect(exit.code, cli.output()).toBe(0)
    const { token } = JSON.parse(cli.stdout().trim().split("\n").at(-1)!)
    api = apiClient(`http://127.0.0.1:${port}`, token)
    await startWorker("worker 1")
    await startWorker("worker 2")
  }, 180_000)

  afterAll(async () => {
    await killAll()
    await receiver?.close()
    await database?.drop()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("two worker processes deliver each event exactly once between them", async () => {
    await subscribe("/shared")
    const committed = await burst(300, "Shared")
    await receiver.waitFor(() => delivered("/shared").length >= 300, 60_000, "300 deliveries")
    await sleep(1500) // a second copy would arrive now
    const received = delivered("/shared")
    expect(received).toHaveLength(300)
    expect(new Set(received.map(deliveryId)).size).toBe(300)
    expect(new Set(received.map(contactOf))).toEqual(new Set(committed))
    expect(received.every((r) => r.verified && r.standardVerified)).toBe(true)

    // Both took part: each reports its attempts when stopped (SIGTERM); then two fresh workers.
    const counts: Array<number> = []
    for (const worker of workers.splice(0)) {
      worker.child.kill("SIGTERM")
      expect(await exitWithin(worker, 30_000), worker.output()).toEqual({ code: 0, signal: null })
      const stopped = worker.stdout().split("\n").find((line) => line.includes("Wasl delivery worker stopped"))
      counts.push(Number(JSON.parse(stopped!).annotations.attempts))
    }
    expect(counts[0]! + counts[1]!).toBe(300)
    expect(Math.min(...counts)).toBeGreaterThan(0)
    await startWorker("worker 3")
    await startWorker("worker 4")
  }, 120_000)

  it("SIGKILL of a worker during a burst loses nothing: the other takes its leased work over", async () => {
    await subscribe("/takeover")
    const [victim, survivor] = workers
    let killed = false
    const creating = burst(300, "Takeover", () => false)
    await receiver.waitFor(() => delivered("/takeover").length >= 30, 60_000, "the burst's first deliveries")
    victim!.child.kill("SIGKILL")
    killed = (await exitWithin(victim!, 10_000)).signal === "SIGKILL"
    expect(killed).toBe(true)
    const committed = await creating
    expect(survivor!.isRunning()).toBe(true)
    // Within the victim's leases (timeout 5 s + 10 s) and the poll, everything arrives.
    await receiver.waitFor(
      () => {
        const seen = new Set(delivered("/takeover").map(contactOf))
        return committed.every((id) => seen.has(id))
      },
      60_000,
      `all ${committed.length} committed contacts delivered`
    )
    const byContact = Map.groupBy(delivered("/takeover"), contactOf)
    expect(byContact.size).toBe(committed.length)
    for (const [, copies] of byContact) expect(new Set(copies.map(deliveryId)).size).toBe(1)
  }, 120_000)

  it("a worker stops cleanly on SIGTERM", async () => {
    const survivor = workers[1]!
    survivor.child.kill("SIGTERM")
    expect(await exitWithin(survivor, 30_000), survivor.output()).toEqual({ code: 0, signal: null })
  }, 40_000)
})
