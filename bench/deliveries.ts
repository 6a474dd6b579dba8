/**
 * The delivery benchmark (`npx node bench/deliveries.ts`: Node 24, the `node` devDependency): one
 * worker process (`apps/worker`) delivering webhook events to a local HTTPS receiver, on
 * PostgreSQL. See bench/README.md ("The delivery benchmark").
 *
 * 1. Creates a database `wasl_bench_<random>` on `BENCH_DATABASE_URL` (default
 *    `postgres://postgres@127.0.0.1:5432/postgres`); starts `apps/server` (it migrates), creates
 *    an account with the CLI, and through the API one webhook subscribed to `contact-created` on
 *    the receiver (test/support/webhook-receiver.ts: HTTPS with the test certificate, every
 *    signature and timestamp verified, as a customer's endpoint would), validated and activated.
 *    Then starts one `apps/worker`.
 * 2. Latency: commits `BENCH_RATE` (200) events per second for `BENCH_SECONDS` (15 s), one
 *    transaction per event through the real `Outbox.append` (`OutboxPg`), and measures for each
 *    the time from its commit returning to its first attempt arriving at the receiver
 *    (p50 / p95 / p99 / max).
 * 3. Saturation: commits `BENCH_BACKLOG` (20,000) events as fast as it can (500 per transaction)
 *    and measures the receiver's arrival rate: deliveries/s from the first to the last arrival.
 * 4. Baseline: a bare sender in this process posts the same number of deliveries to the same
 *    receiver — the body of a real delivery with its sequence number changed, both signatures
 *    made per request, HTTPS keep-alive with the worker's 64 sockets and 64 in flight — with no
 *    database: the floor of this machine for the saturation figure (target: the worker ≥ 0.8x).
 *    3 and 4 run in `BENCH_ROUNDS` (4) rounds alternating between the worker and the bare sender,
 *    each round a share of the backlog; each side's rate is its deliveries over the sum of its
 *    rounds' first-to-last spans.
 * 5. Prints the figures (and adds them to `BENCH_JSON`, if set), stops the children and drops the
 *    database (also on failure, Ctrl-C or the time limit `BENCH_TIMEOUT_MS`, 10 minutes). The
 *    worker's resident memory is sampled over the saturation phase, and its CPU time (user +
 *    system, `/proc/<pid>/stat`) over that phase divided by the deliveries.
 *
 * `--fleet` measures a fleet instead: 1, 2 and 4 workers on one PostgreSQL against a receiver that
 * answers in 100 ms (`runFleet`).
 *
 * Everything runs on this machine: the receiver and the event generator in this process, the
 * server, the worker and PostgreSQL beside it.
 *
 * @module
 */
import { PgClient } from "@effect/sql-pg"
import { OutboxPg, pgClientOptions } from "@wasl/adapters/Postgres"
import { type NewOutboxEvent, Outbox } from "@wasl/core/Events"
import { Layer, ManagedRuntime, Redacted } from "effect"
import { SecureRandom } from "effect/crypto"
import { createHmac, randomBytes, randomUUID } from "node:crypto"
import * as Fs from "node:fs"
import * as Https from "node:https"
import * as Os from "node:os"
import * as Path from "node:path"
import { performance } from "node:perf_hooks"
import { RECEIVER_CA_FILE, startWebhookReceiver } from "../test/support/webhook-receiver.ts"
import { benchApi, bootstrapAccount, root, startChild, startWaslServer, stopChild } from "./support/children.ts"
import { cpuSeconds } from "./support/cpu.ts"
import { createBenchDatabase } from "./support/database.ts"
import { intFromEnv, nodeFlagsFromEnv } from "./support/env.ts"
import { alternate, roundShare, roundsFromEnv } from "./support/load.ts"
import { atCleanup, runBenchmark } from "./support/harness.ts"
import { figureResult, ratioResult, writeResults } from "./support/results.ts"
import { sampleRss } from "./support/rss.ts"
import { ms, table } from "./support/table.ts"

const settings = {
  url: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  rate: intFromEnv("BENCH_RATE", 200, 1),
  seconds: intFromEnv("BENCH_SECONDS", 15, 1),
  backlog: intFromEnv("BENCH_BACKLOG", 20_000, 100),
  fleet: (process.env.BENCH_FLEET || "1,2,4").split(",").map((n) => Number(n.trim())).filter((n) => Number.isInteger(n) && n > 0),
  fleetEvents: intFromEnv("BENCH_FLEET_EVENTS", 8_000, 100),
  fleetDelayMs: intFromEnv("BENCH_FLEET_DELAY_MS", 100, 0)
}

const log = (message: string) => console.error(`bench:deliveries: ${message}`)
const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, millis)))

/** Delivery targets: the worker at least this fraction of the bare sender; p99 at the fixed rate at most 250 ms. */
const SATURATION_TARGET = 0.8
const P99_TARGET_MS = 250

/** The worker's concurrency: 64 keep-alive sockets per host, 64 attempts in flight. */
const SOCKETS = 64

/**
 * The baseline sender: `count` deliveries like `sample` (a delivery the worker made: its body and
 * path), each with its own sequence number and both signatures, posted with `SOCKETS` in flight.
 */
const bareSend = async (
  url: string,
  secret: string,
  sample: { readonly rawBody: string },
  count: number,
  seqOf: (i: number) => number
) => {
  const agent = new Https.Agent({ keepAlive: true, maxSockets: SOCKETS, ca: Fs.readFileSync(RECEIVER_CA_FILE) })
  const template = JSON.parse(sample.rawBody)
  const key = Buffer.from(secret, "utf8")
  const post = (seq: number) =>
    new Promise<void>((resolve, reject) => {
      template.contact.properties.seq = seq
      const body = JSON.stringify(template)
      const id = randomUUID()
      const timestamp = String(Math.floor(Date.now() / 1000))
      const request = Https.request(url, {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "x-wasl-event": "contact-created",
          "x-wasl-delivery": id,
          "x-wasl-timestamp": timestamp,
          "x-wasl-signature": `sha256=${createHmac("sha256", key).update(`${timestamp}:${body}`).digest("hex")}`,
          "webhook-id": id,
          "webhook-timestamp": timestamp,
          "webhook-signature": `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`
        }
      }, (response) => {
        response.resume()
        response.on("end", () => (response.statusCode === 200 ? resolve() : reject(new Error(`bare sender: status ${response.statusCode}`))))
      })
      request.on("error", reject)
      request.end(body)
    })
  let next = 0
  const loop = async () => {
    for (let i = next++; i < count; i = next++) await post(seqOf(i))
  }
  try {
    await Promise.all(Array.from({ length: SOCKETS }, loop))
  } finally {
    agent.destroy()
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** The database, the receiver, the server with its account and webhook, and the event generator both modes share. */
const setUp = async () => {
  const tmp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-bench-deliveries-"))
  atCleanup(() => Fs.rmSync(tmp, { recursive: true, force: true }))

  const database = await createBenchDatabase(settings.url)
  atCleanup(database.drop)

  const receiver = await startWebhookReceiver({ record: false })
  atCleanup(() => receiver.close())

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    WASL_DATA_DIR: Path.join(tmp, "data"),
    WASL_SECRET_KEY: randomBytes(32).toString("hex"),
    WASL_WEBHOOK_ALLOW_PRIVATE: "true",
    WASL_WEBHOOK_CA_FILE: RECEIVER_CA_FILE,
    WASL_MAIL_OUTBOX: Path.join(tmp, "mail.jsonl")
  }

  log("starting apps/server and bootstrapping an account...")
  const server = await startWaslServer(env)
  const bootstrap = await bootstrapAccount(env)
  const api = benchApi(server.origin, bootstrap.token)
  const hook = (await api("POST", "/api/account/webhooks", { URL: receiver.url("/bench"), events: ["contact-created"] })).data
  receiver.setSecret("/bench", hook.secret)
  await api("POST", `/api/account/webhooks/${hook.id}/validate`)
  await api("PUT", `/api/account/webhooks/${hook.id}/activate`, { is_active: true })

  // BENCH_WORKER_NODE_ARGS: extra node flags for the workers alone (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const workerFlags = nodeFlagsFromEnv("BENCH_WORKER_NODE_ARGS")
  const startWorker = async () => {
    const worker = startChild("apps/worker", [...workerFlags, Path.join(root, "apps", "worker", "src", "main.ts")], env)
    await worker.waitFor(/Wasl delivery worker started/, 60_000)
    return worker
  }

  // The generator's outbox: the real append path, over its own connection pool.
  const runtime = ManagedRuntime.make(
    OutboxPg.pipe(
      Layer.provide(SecureRandom.layerWebCrypto),
      Layer.provide(PgClient.layer({ ...pgClientOptions, url: Redacted.make(database.url), maxConnections: 8 }))
    )
  )
  atCleanup(() => runtime.dispose())
  const append = (events: ReadonlyArray<NewOutboxEvent>) => runtime.runPromise(Outbox.use((outbox) => outbox.append(events)))
  const event = (seq: number): NewOutboxEvent => ({
    accountId: bootstrap.account_id,
    name: "contact-created",
    payload: {
      properties: { _id: randomBytes(12).toString("hex"), firstname: "Bench", lastname: String(seq), seq },
      channels: []
    }
  })

  const committedAt = new Map<number, number>()
  const arrivedAt = new Map<number, number>()
  const arrivals: Array<number> = []
  let unverified = 0
  let duplicates = 0
  const seen = new Set<number>()
  let sample: { readonly rawBody: string } | undefined
  receiver.onRequest((request) => {
    const now = performance.now()
    if (request.body?.event !== "contact-created") return
    sample ??= request
    if (!request.verified) unverified++
    const seq = request.body.contact.properties.seq as number
    if (seen.has(seq)) {
      duplicates++
      return
    }
    seen.add(seq)
    arrivals.push(now)
    arrivedAt.set(seq, now)
  })
  const waitForArrivals = async (count: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs
    while (seen.size < count) {
      if (Date.now() > deadline) throw new Error(`only ${seen.size} of ${count} events delivered within ${timeoutMs} ms`)
      await sleep(20)
    }
  }

  /** Commits `count` events from `firstSeq` as fast as it can, 500 per transaction. */
  const commitBacklog = async (firstSeq: number, count: number) => {
    for (let start = firstSeq; start < firstSeq + count; start += 500) {
      const events: Array<NewOutboxEvent> = []
      for (let seq = start; seq < Math.min(firstSeq + count, start + 500); seq++) events.push(event(seq))
      await append(events)
    }
  }
  const counts = { unverified: () => unverified, duplicates: () => duplicates }
  return {
    database, receiver, hook, startWorker, append, event, committedAt, arrivedAt, arrivals, seen, counts, waitForArrivals, commitBacklog,
    sample: () => sample
  }
}

const run = async () => {
  const startedAt = new Date()
  const { database, receiver, hook, startWorker, append, event, committedAt, arrivedAt, arrivals, seen, counts, waitForArrivals, sample } =
    await setUp()
  log("starting one apps/worker...")
  const worker = await startWorker()

  // Warm-up: connections, JIT, the first TLS handshake.
  for (let i = 0; i < 50; i++) await append([event(-1 - i)])
  await waitForArrivals(50, 30_000)
  seen.clear()
  arrivals.length = 0

  // 2. Latency at a fixed rate.
  const total = settings.rate * settings.seconds
  log(`latency: ${total} events at ${settings.rate}/s, one transaction each...`)
  // Open loop: each event is committed at its time whether or not earlier commits have returned
  // (at most 32 in flight), so a slow commit does not lower the rate.
  const interval = 1000 / settings.rate
  const t0 = performance.now()
  let late = 0
  const commits = new Set<Promise<void>>()
  for (let seq = 0; seq < total; seq++) {
    const due = t0 + seq * interval
    const wait = due - performance.now()
    if (wait > 1) await sleep(wait)
    else if (wait < -interval) late++
    while (commits.size >= 32) await Promise.race(commits)
    const commit: Promise<void> = append([event(seq)]).then(() => {
      committedAt.set(seq, performance.now())
      commits.delete(commit)
    })
    commits.add(commit)
  }
  await Promise.all(commits)
  const commitSeconds = (performance.now() - t0) / 1000
  await waitForArrivals(total, 60_000)
  // From the commit returning (in this process) to the first attempt arriving (also here). Under
  // load the receiver's callback can run before the commit's promise does: such a latency is 0.
  const sortedLatency = [...committedAt].map(([seq, at]) => Math.max(0, arrivedAt.get(seq)! - at)).sort((a, b) => a - b)

  // 3 and 4. Saturation: a backlog committed as fast as possible for the worker, and the same
  // number of deliveries posted by a bare sender to the same receiver without the worker, in
  // rounds alternating between the two (`alternate`), so a change in the machine's speed falls on
  // both alike.
  const rounds = roundsFromEnv()
  log(`saturation: ${settings.backlog} events (500 per transaction) and as many bare deliveries, in ${rounds} alternating rounds...`)
  const workerRss = sampleRss(worker.child.pid)
  // Each side's deliveries after the first of each round, and the seconds from first to last arrival.
  const workerSide = { spans: 0, seconds: 0 }
  const bareSide = { spans: 0, seconds: 0 }
  let workerCpuSeconds: number | undefined = 0
  let backlogCommitted = 0
  let nextSeq = 0
  /** Resolves when `count` deliveries have arrived after `send`, adding their span to `side`. */
  const measured = async (side: { spans: number; seconds: number }, count: number, send: () => Promise<void>) => {
    seen.clear()
    arrivals.length = 0
    await send()
    await waitForArrivals(count, 300_000)
    side.spans += arrivals.length - 1
    side.seconds += (arrivals.at(-1)! - arrivals[0]!) / 1000
  }
  const workerRound = async (count: number) => {
    const before = cpuSeconds(worker.child.pid)
    const firstSeq = nextSeq
    nextSeq += count
    await measured(workerSide, count, async () => {
      const s0 = performance.now()
      for (let start = firstSeq; start < firstSeq + count; start += 500) {
        const events: Array<NewOutboxEvent> = []
        for (let seq = start; seq < Math.min(firstSeq + count, start + 500); seq++) events.push(event(1_000_000 + seq))
        await append(events)
      }
      backlogCommitted += performance.now() - s0
    })
    const after = cpuSeconds(worker.child.pid)
    workerCpuSeconds = before === undefined || after === undefined || workerCpuSeconds === undefined
      ? undefined
      : workerCpuSeconds + after - before
  }
  const bareRound = (count: number) => {
    const firstSeq = nextSeq
    nextSeq += count
    return measured(bareSide, count, () => bareSend(receiver.url("/bench"), hook.secret, sample()!, count, (i) => 2_000_000 + firstSeq + i))
  }
  await alternate([workerRound, bareRound], rounds, (side, round) => side(roundShare(settings.backlog, rounds, round)))
  const memory = workerRss.stop()
  const perSecond = workerSide.spans / workerSide.seconds
  const barePerSecond = bareSide.spans / bareSide.seconds
  // The worker's CPU per delivery over its rounds (its fan-out included): on a shared machine the
  // rates above move with the neighbours' load, this much less.
  const cpuPerDelivery = workerCpuSeconds === undefined ? undefined : (workerCpuSeconds * 1e6) / settings.backlog

  const cpus = Os.cpus()
  console.log([
    `Wasl delivery benchmark, ${startedAt.toISOString()}`,
    `  one apps/worker process -> local HTTPS receiver (signatures verified), keep-alive; PostgreSQL ${new URL(database.url).host}`,
    `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
    "",
    `latency at ${settings.rate} events/s (${total} events committed in ${commitSeconds.toFixed(1)} s, ${late} behind schedule):`,
    table([
      ["event commit -> first attempt", "p50 ms", "p95 ms", "p99 ms", "max ms"],
      [
        `${sortedLatency.length} events`,
        ms(percentile(sortedLatency, 50)),
        ms(percentile(sortedLatency, 95)),
        ms(percentile(sortedLatency, 99)),
        ms(sortedLatency.at(-1) ?? Number.NaN)
      ]
    ]),
    "",
    `saturation: ${settings.backlog} events committed in ${(backlogCommitted / 1000).toFixed(1)} s in all, in ${rounds} rounds alternating with the bare sender`,
    table([
      ["first to last arrival of each round", "deliveries/s"],
      ["apps/worker", perSecond.toFixed(0)],
      ["bare sender (no database)", barePerSecond.toFixed(0)],
      ["worker / bare sender", `${(perSecond / barePerSecond).toFixed(2)}x`]
    ]),
    cpuPerDelivery === undefined
      ? "apps/worker CPU: not readable here"
      : `apps/worker CPU over the saturation: ${cpuPerDelivery.toFixed(0)} µs per delivery (user + system)`,
    memory === undefined
      ? "apps/worker RSS: not readable here"
      : `apps/worker RSS over the saturation: ${memory.first.toFixed(0)} MiB at start, ${memory.peak.toFixed(0)} MiB at most, ${
        memory.last.toFixed(0)
      } MiB at the end`,
    "",
    `unverified signatures: ${counts.unverified()}; duplicate deliveries: ${counts.duplicates()}`
  ].join("\n"))
  writeResults([
    ratioResult("webhook deliveries at saturation: deliveries/s", perSecond, barePerSecond, SATURATION_TARGET),
    figureResult(`event commit -> first attempt at ${settings.rate} events/s: p99 ms`, percentile(sortedLatency, 99), P99_TARGET_MS),
    ...(cpuPerDelivery === undefined ? [] : [figureResult("apps/worker CPU per delivery at saturation (µs)", cpuPerDelivery)]),
    ...(memory === undefined ? [] : [figureResult("apps/worker RSS peak at delivery saturation (MiB)", memory.peak)])
  ])
  if (counts.unverified() > 0) throw new Error(`${counts.unverified()} deliveries failed the receiver's signature check`)
}

/**
 * Fleet mode (`--fleet`): for each size of `BENCH_FLEET` (1, 2 and 4 `apps/worker` processes on the
 * one PostgreSQL), a backlog of `BENCH_FLEET_EVENTS` (8,000) events delivered to a receiver that
 * answers each after `BENCH_FLEET_DELAY_MS` (100 ms), as a real endpoint does: deliveries/s from
 * the first to the last arrival, every event delivered once (none lost, none twice), and the
 * factor from one worker to the largest fleet. With 64 attempts in flight per worker and 100 ms a
 * delivery, one worker tops out near 640/s: bounded by its in-flight requests, not the database.
 */
const runFleet = async () => {
  const startedAt = new Date()
  const { database, receiver, startWorker, append, event, arrivals, seen, counts, waitForArrivals, commitBacklog } = await setUp()
  receiver.setDelay("/bench", settings.fleetDelayMs)
  const figures: Array<{ readonly workers: number; readonly perSecond: number; readonly delivered: number; readonly duplicates: number }> = []
  let nextSeq = 0
  for (const size of settings.fleet) {
    log(`fleet of ${size}: starting the workers...`)
    const workers = await Promise.all(Array.from({ length: size }, startWorker))
    // Warm-up: each worker's connections and TLS sessions.
    seen.clear()
    for (let i = 0; i < 20 * size; i++) await append([event(10_000_000 + nextSeq++)])
    await waitForArrivals(20 * size, 60_000)
    seen.clear()
    arrivals.length = 0
    const duplicatesBefore = counts.duplicates()
    log(`fleet of ${size}: ${settings.fleetEvents} events, the receiver answering in ${settings.fleetDelayMs} ms...`)
    await commitBacklog(nextSeq, settings.fleetEvents)
    nextSeq += settings.fleetEvents
    await waitForArrivals(settings.fleetEvents, 600_000)
    // Late duplicates would arrive after the last first arrival: give them a moment.
    await sleep(2 * settings.fleetDelayMs + 500)
    figures.push({
      workers: size,
      perSecond: (arrivals.length - 1) / ((arrivals.at(-1)! - arrivals[0]!) / 1000),
      delivered: seen.size,
      duplicates: counts.duplicates() - duplicatesBefore
    })
    for (const worker of workers) await stopChild(worker)
  }
  const base = figures[0]!
  const largest = figures.at(-1)!
  const cpus = Os.cpus()
  console.log([
    `Wasl delivery benchmark, fleet mode, ${startedAt.toISOString()}`,
    `  apps/worker processes on one PostgreSQL ${new URL(database.url).host} -> local HTTPS receiver answering in ${settings.fleetDelayMs} ms`,
    `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
    "",
    table([
      ["workers", "events", "delivered once", "duplicates", "deliveries/s", `vs ${base.workers}`],
      ...figures.map((f) => [
        String(f.workers),
        String(settings.fleetEvents),
        String(f.delivered),
        String(f.duplicates),
        f.perSecond.toFixed(0),
        `${(f.perSecond / base.perSecond).toFixed(2)}x`
      ])
    ]),
    "",
    `unverified signatures: ${counts.unverified()}`
  ].join("\n"))
  writeResults([
    figureResult(`webhook deliveries, ${base.workers} worker(s), receiver at ${settings.fleetDelayMs} ms: deliveries/s`, base.perSecond),
    ratioResult(`webhook deliveries, ${largest.workers} workers vs ${base.workers}: deliveries/s`, largest.perSecond, base.perSecond, 3)
  ])
  if (figures.some((f) => f.delivered !== settings.fleetEvents || f.duplicates > 0)) throw new Error("an event was lost or delivered twice")
  if (counts.unverified() > 0) throw new Error(`${counts.unverified()} deliveries failed the receiver's signature check`)
}

await runBenchmark(process.argv.includes("--fleet") ? runFleet : run, { defaultTimeoutMs: 10 * 60_000, log })
