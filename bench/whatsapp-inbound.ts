/**
 * The WhatsApp inbound benchmark (`npx node bench/whatsapp-inbound.ts`): Meta's signed callbacks
 * of one text message each, posted to `POST /api/whatsapp/webhook` of the real Wasl HTTP server
 * (`apps/server`, a child process), beside a bare `node:http` server (`node
 * bench/whatsapp-inbound.ts --baseline`, also a child) that checks the same signature and inserts
 * the raw body into the same table with one statement. PostgreSQL only (`BENCH_DATABASE_URL`,
 * default `postgres://postgres@127.0.0.1:5432/postgres`; the run creates and drops its own
 * database). See bench/README.md ("The WhatsApp inbound benchmark").
 *
 * | variable            | default | meaning                                                         |
 * |---------------------|---------|-----------------------------------------------------------------|
 * | `BENCH_REQUESTS`    | 4000    | measured callbacks per server at saturation                     |
 * | `BENCH_WARMUP`      | 2000    | warm-up callbacks per server (not measured)                     |
 * | `BENCH_CONCURRENCY` | 10      | concurrent keep-alive connections at saturation                 |
 * | `BENCH_RATE`        | 200     | callbacks per second of the open-loop phase                     |
 * | `BENCH_SECONDS`     | 15      | length of the open-loop phase per server                        |
 * | `BENCH_ROUNDS`      | 4       | the measured callbacks in this many rounds, alternating servers |
 * | `BENCH_JSON`        | unset   | a file the figures are added to, as JSON                        |
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto"
import * as Os from "node:os"
import * as Path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { pgClientOptions } from "@wasl/adapters/Postgres"
import { metaJson, metaWebhook, signMeta } from "@wasl/adapters/testing"
import { Effect } from "effect"
import { openPgClient, type Reply, serveBaseline } from "./support/baseline-server.ts"
import { root, startBaseline, startChild, startWaslServer, stopChild } from "./support/children.ts"
import { benchDeployment } from "./support/deployment.ts"
import { intFromEnv } from "./support/env.ts"
import { runBenchmark } from "./support/harness.ts"
import {
  alternate,
  combineFigures,
  FIGURES_HEADER,
  type Figures,
  figuresRow,
  type LoadRequest,
  loadRequests,
  makeSender,
  openLoopRequests,
  ratioRow,
  roundShare,
  roundsFromEnv,
  withServerCpu
} from "./support/load.ts"
import { cpuResults, figureResult, ratioResult, writeResults } from "./support/results.ts"
import { table } from "./support/table.ts"

const self = fileURLToPath(import.meta.url)
const log = (message: string) => console.error(`bench:whatsapp-inbound: ${message}`)

/**
 * Targets: Wasl's callbacks per second at least this fraction of the baseline's; p99 to the 200 at
 * the open-loop rate; p99 until the message is listed by the API at that rate.
 */
const RATE_TARGET = 0.7
const P99_TARGET_MS = 50
const READABLE_P99_TARGET_MS = 1000
/** How often the reader asks the API for the contact's newest messages. */
const POLL_MS = 100
/** The customers who write in the readable phase, and the sandbox number they write to. */
const CUSTOMERS = 1000
const SANDBOX_NUMBER = "+16505550100"

const APP_SECRET = "bench-meta-app-secret"
const PATH = "/api/whatsapp/webhook"

/** The i-th callback: one text message from `from` to `phoneNumberId`, as Meta writes and signs it. */
const callback = (prefix: string, i: number, phoneNumberId = "106540352242922", from = "16505551234"): LoadRequest => {
  const body = metaJson(metaWebhook.textMessage({
    phoneNumberId,
    from,
    id: `wamid.${prefix}.${i}`,
    text: `Message ${i}: does it come in another color?`,
    profileName: "Sheena Nelson"
  }))
  return { method: "POST", path: PATH, body, headers: { "x-hub-signature-256": signMeta(APP_SECRET, body) } }
}

// -----------------------------------------------------------------------------
// the baseline server (`node bench/whatsapp-inbound.ts --baseline`)
// -----------------------------------------------------------------------------

const unauthentic: Reply = { status: 401, body: JSON.stringify({ message: "Unauthenticated." }) }

const runBaselineServer = async () => {
  const { close, sql } = await openPgClient(process.env.DATABASE_URL!, {
    ...pgClientOptions,
    applicationName: "wasl-bench-whatsapp-baseline",
    maxConnections: 10
  })
  serveBaseline((request, body) => {
    const expected = Buffer.from(signMeta(APP_SECRET, body))
    const given = Buffer.from(String(request.headers["x-hub-signature-256"] ?? ""))
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Promise.resolve(unauthentic)
    return Effect.runPromise(
      sql`INSERT INTO whatsapp_inbox (body, received_at) VALUES (${body}, ${new Date()})`.pipe(
        Effect.orDie,
        Effect.as<Reply>({ status: 200, body: "" })
      )
    )
  }, close)
}

// -----------------------------------------------------------------------------
// the run
// -----------------------------------------------------------------------------

/** One server's callbacks: the saturation rounds, kept and put together by `phase`. */
const makePoster = async (name: string, origin: string, concurrency: number, pid: number | undefined) => {
  const sender = await makeSender(origin, { accept: "application/json" }, concurrency)
  // The open loop has connections to spare: a request waits for one only when the server is behind.
  const paced = await makeSender(origin, { accept: "application/json" }, 64)
  let sent = 0
  const next = (_: number) => callback(name, sent++)
  const rounds: Array<Figures> = []
  return {
    sender,
    paced,
    warmUp: (requests: number) => loadRequests(sender, requests, concurrency, next),
    round: async (requests: number) => {
      rounds.push(await withServerCpu(pid, () => loadRequests(sender, requests, concurrency, next)))
    },
    openLoop: (rate: number, seconds: number) => openLoopRequests(paced, rate * seconds, rate, next),
    saturation: () => combineFigures(rounds),
    sent: () => sent
  }
}

/** The Wasl API as the benchmark's reader and set-up use it: JSON in and out, with the owner's token. */
const apiOf = (origin: string, token: string) => async (method: string, path: string, body?: unknown) => {
  const reply = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await reply.text()
  if (!reply.ok) throw new Error(`${method} ${path}: ${reply.status} ${text.slice(0, 500)}`)
  return JSON.parse(text) as any
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The customer who writes the readable phase's i-th message: CUSTOMERS of them in turn. */
const customerOf = (i: number) => `1650556${String(i % CUSTOMERS).padStart(4, "0")}`

/**
 * The readable phase: `apps/worker` processes the callbacks while they arrive at `rate` a second,
 * open loop, from CUSTOMERS customers the account has (each wrote once before) in turn (each
 * writes again CUSTOMERS / rate seconds later) to a sandbox number; a reader asks the API for the inbox every POLL_MS (`GET
 * /api/conversations`, latest activity first) and notes when each wamid is first listed as its
 * conversation's last message. A message's time runs from its callback's due time to that moment
 * (the poll adds up to POLL_MS); one never listed (its customer wrote again before it was) counts
 * as never readable.
 */
const readablePhase = async (origin: string, token: string, env: NodeJS.ProcessEnv, rate: number, seconds: number) => {
  const api = apiOf(origin, token)
  const platform = await api("POST", "/api/platforms", { name: "Bench", display_phone_number: SANDBOX_NUMBER, provider: "sandbox" })
  // Meta's phone_number_id of a sandbox number is its display number's digits.
  const phoneId = String(platform.data.phone_id ?? SANDBOX_NUMBER.replace(/[^0-9]/g, ""))
  const worker = startChild("apps/worker", [Path.join(root, "apps", "worker", "src", "main.ts")], env)
  await worker.waitFor(/Wasl delivery worker started/, 60_000)
  const sender = await makeSender(origin, { accept: "application/json" }, 64)
  // The customers write once first, and the measure starts when the inbox holds all of them: it
  // prices a message of a contact the account has, the common case. A new number's first message
  // also makes its contact, under the account's contact match lock (bench/README.md).
  log(`  ${CUSTOMERS} customers write a first message...`)
  await openLoopRequests(sender, CUSTOMERS, rate, (i) => callback("readable-first", i, phoneId, customerOf(i)))
  for (let total = 0; total < CUSTOMERS; await sleep(500)) {
    total = (await api("GET", "/api/conversations?per_page=1")).meta.total
  }

  const total = rate * seconds
  const due = new Float64Array(total)
  const dueWall = new Float64Array(total).fill(Number.POSITIVE_INFINITY)
  const seen = new Float64Array(total).fill(Number.NaN)
  let listed = 0
  let sending = true
  let lastDue = 0
  const pattern = /^wamid\.readable\.(\d+)$/
  // The worker processes several callbacks at once, so a conversation can move up after newer ones:
  // each poll reads pages until it passes the time of the earliest message not listed yet (a
  // message's time is its callback's second, never before the callback was due).
  const earliestUnlisted = () => {
    let earliest = Number.POSITIVE_INFINITY
    for (let i = 0; i < total; i++) if (Number.isNaN(seen[i]!) && dueWall[i]! < earliest) earliest = dueWall[i]!
    return earliest
  }
  const reader = (async () => {
    while (listed < total && (sending || performance.now() < lastDue + 60_000)) {
      const horizon = Math.floor(earliestUnlisted() / 1000) * 1000 - 1000
      for (let page = 1;; page++) {
        const inbox = await api("GET", `/api/conversations?per_page=100&page=${page}`)
        const now = performance.now()
        const entries = inbox.data as ReadonlyArray<{ last_message: { id: string; created_at: string } }>
        for (const entry of entries) {
          const i = Number(pattern.exec(entry.last_message.id)?.[1] ?? Number.NaN)
          if (Number.isInteger(i) && Number.isNaN(seen[i]!)) {
            seen[i] = now
            listed += 1
          }
        }
        const oldest = entries.at(-1)
        if (entries.length < 100 || oldest === undefined || Date.parse(oldest.last_message.created_at) < horizon) break
      }
      await sleep(POLL_MS)
    }
  })()
  const acks = await openLoopRequests(sender, total, rate, (i) => {
    due[i] = lastDue = performance.now()
    dueWall[i] = Date.now()
    return callback("readable", i, phoneId, customerOf(i))
  })
  sending = false
  await reader
  await sender.close()
  await stopChild(worker)
  const latencies = new Float64Array(total)
  for (let i = 0; i < total; i++) latencies[i] = Number.isNaN(seen[i]!) ? Number.POSITIVE_INFINITY : seen[i]! - due[i]!
  latencies.sort()
  const at = (p: number) => latencies[Math.max(0, Math.ceil((p / 100) * total) - 1)]!
  return { acks, unlisted: total - listed, p50: at(50), p95: at(95), p99: at(99), max: latencies[total - 1]! }
}

const run = async () => {
  const settings = {
    requests: intFromEnv("BENCH_REQUESTS", 4000, 1),
    warmup: intFromEnv("BENCH_WARMUP", 2000, 0),
    concurrency: intFromEnv("BENCH_CONCURRENCY", 10, 1),
    rate: intFromEnv("BENCH_RATE", 200, 1),
    seconds: intFromEnv("BENCH_SECONDS", 15, 1),
    rounds: roundsFromEnv()
  }
  process.env.BENCH_DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/postgres"
  const startedAt = new Date()
  const { databaseLabel, env, token } = await benchDeployment(log)

  log("starting apps/server...")
  // No request limit: the readable phase's reader asks for the thread 50 times a second with one token.
  const wasl = await startWaslServer({
    ...env,
    WASL_RATE_LIMIT: "0",
    WASL_WHATSAPP_APP_SECRET: APP_SECRET,
    WASL_WHATSAPP_VERIFY_TOKEN: "bench-verify-token"
  })
  log("starting the baseline...")
  const bare = await startBaseline(self, ["--baseline"], env)
  const [w, b] = await Promise.all([
    makePoster("wasl", wasl.origin, settings.concurrency, wasl.child.child.pid),
    makePoster("bare", bare.origin, settings.concurrency, bare.child.child.pid)
  ])
  const posters = [w!, b!]
  // Both must refuse a forged callback before anything is measured.
  for (const poster of posters) {
    const forged = callback("forged", 0)
    const reply = await poster.sender.send({ ...forged, headers: { "x-hub-signature-256": signMeta("not-the-secret", forged.body!) } })
    if (reply.status !== 401) throw new Error(`a forged callback was answered ${reply.status}, not 401`)
  }
  log(`each server: ${settings.warmup} warm-up callbacks, then ${settings.requests} in ${settings.rounds} alternating rounds...`)
  for (const poster of posters) await poster.warmUp(settings.warmup)
  await alternate(posters, settings.rounds, (poster, round) => poster.round(roundShare(settings.requests, settings.rounds, round)))
  log(`each server: ${settings.rate} callbacks a second for ${settings.seconds} s, open loop...`)
  const paced: Array<Figures> = []
  for (const poster of posters) paced.push(await poster.openLoop(settings.rate, settings.seconds))
  const [wPaced, bPaced] = paced as [Figures, Figures]

  // Every callback acknowledged was stored, once.
  const { close, sql } = await openPgClient(env.DATABASE_URL!, { ...pgClientOptions, maxConnections: 1 })
  const [stored] = await Effect.runPromise(Effect.orDie(sql<{ n: number }>`SELECT count(*)::int AS n FROM whatsapp_inbox`))
  await close()
  const acknowledged = w!.sent() + b!.sent()
  if (stored!.n !== acknowledged) throw new Error(`${acknowledged} callbacks acknowledged, ${stored!.n} stored`)

  for (const poster of posters) {
    await poster.sender.close()
    await poster.paced.close()
  }
  await stopChild(bare.child)

  // The readable phase starts from an empty inbox: the worker has only its own callbacks to process.
  log(`Wasl with apps/worker: ${settings.rate} callbacks a second for ${settings.seconds} s, each read back through the API...`)
  const { close: closeAgain, sql: sqlAgain } = await openPgClient(env.DATABASE_URL!, { ...pgClientOptions, maxConnections: 1 })
  await Effect.runPromise(Effect.orDie(sqlAgain`TRUNCATE whatsapp_inbox`))
  await closeAgain()
  const readable = await readablePhase(wasl.origin, token, env, settings.rate, settings.seconds)
  await stopChild(wasl.child)
  const [ws, bs] = [w!.saturation(), b!.saturation()]

  const results = [
    ratioResult("WhatsApp callbacks at saturation: acknowledged/s", ws.perSecond, bs.perSecond, RATE_TARGET),
    figureResult(`WhatsApp callback -> 200 at ${settings.rate}/s: p99 ms`, wPaced.p99, P99_TARGET_MS),
    figureResult(`WhatsApp callback -> 200 at ${settings.rate}/s, bare server: p99 ms`, bPaced.p99),
    figureResult(`WhatsApp callback -> listed by the API at ${settings.rate}/s: p99 ms`, readable.p99, READABLE_P99_TARGET_MS),
    ...cpuResults("POST /api/whatsapp/webhook", ws, bs)
  ]
  const cpus = Os.cpus()
  console.log([
    `Wasl WhatsApp inbound benchmark, ${startedAt.toISOString()}`,
    `  POST ${PATH}: signed callbacks of one text message each (${ws.bytes === 0 ? "empty" : ws.bytes} B answers),`,
    `  saturation: ${settings.requests} after ${settings.warmup} warm-up, in ${settings.rounds} rounds alternating between the servers,`,
    `  ${settings.concurrency} concurrent keep-alive connections (${w!.sender.name}), loopback;`,
    `  then ${settings.rate}/s for ${settings.seconds} s per server, open loop (latency from each callback's due time)`,
    `  database: ${databaseLabel}`,
    `  baseline: node:http, HMAC-SHA256 of the body checked in constant time, one INSERT of the raw body into whatsapp_inbox`,
    `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
    "",
    table([
      FIGURES_HEADER,
      figuresRow("saturation Wasl", ws),
      figuresRow("saturation baseline", bs),
      ratioRow("Wasl / baseline", ws, bs),
      figuresRow(`${settings.rate}/s Wasl`, wPaced),
      figuresRow(`${settings.rate}/s baseline`, bPaced),
      figuresRow(`${settings.rate}/s Wasl + worker`, readable.acks)
    ]),
    "",
    `until listed by GET /api/conversations at ${settings.rate}/s, ${CUSTOMERS} customers (apps/worker processing, polled every ${POLL_MS} ms):`,
    `  p50 ${readable.p50.toFixed(1)} ms, p95 ${readable.p95.toFixed(1)} ms, p99 ${readable.p99.toFixed(1)} ms, max ${
      readable.max.toFixed(1)
    } ms; never listed: ${readable.unlisted}`,
    "",
    `acknowledged per second: ${(ws.perSecond / bs.perSecond).toFixed(2)}x of the baseline, target >= ${RATE_TARGET}x ${
      ws.perSecond / bs.perSecond >= RATE_TARGET ? "met" : "MISSED"
    }`,
    `p99 to the 200 at ${settings.rate}/s: ${wPaced.p99.toFixed(1)} ms, target <= ${P99_TARGET_MS} ms ${
      wPaced.p99 <= P99_TARGET_MS ? "met" : "MISSED"
    }`,
    `p99 until listed at ${settings.rate}/s: ${readable.p99.toFixed(1)} ms, target <= ${READABLE_P99_TARGET_MS} ms ${
      readable.p99 <= READABLE_P99_TARGET_MS ? "met" : "MISSED"
    }`,
    `stored: ${stored!.n} rows, one per acknowledged callback`
  ].join("\n"))
  writeResults(results)
}

if (process.argv.includes("--baseline")) await runBaselineServer()
else await runBenchmark(run, { defaultTimeoutMs: 600_000, log })
