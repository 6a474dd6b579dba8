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
import { fileURLToPath } from "node:url"
import { pgClientOptions } from "@wasl/adapters"
import { metaJson, metaWebhook, signMeta } from "@wasl/adapters/testing"
import { Effect } from "effect"
import { openPgClient, type Reply, serveBaseline } from "./support/baseline-server.ts"
import { startBaseline, startWaslServer, stopChild } from "./support/children.ts"
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

/** Targets: Wasl's callbacks per second at least this fraction of the baseline's; p99 to the 200 at the open-loop rate. */
const RATE_TARGET = 0.7
const P99_TARGET_MS = 50

const APP_SECRET = "bench-meta-app-secret"
const PATH = "/api/whatsapp/webhook"

/** The i-th callback: one text message, as Meta writes and signs it. */
const callback = (prefix: string, i: number): LoadRequest => {
  const body = metaJson(metaWebhook.textMessage({
    phoneNumberId: "106540352242922",
    from: "16505551234",
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
  const { databaseLabel, env } = await benchDeployment(log)

  log("starting apps/server...")
  const wasl = await startWaslServer({ ...env, WASL_WHATSAPP_APP_SECRET: APP_SECRET, WASL_WHATSAPP_VERIFY_TOKEN: "bench-verify-token" })
  log("starting the baseline...")
  const bare = await startBaseline(self, ["--baseline"], env)
  const servers = [wasl, bare]
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
  for (const server of servers) await stopChild(server.child)
  const [ws, bs] = [w!.saturation(), b!.saturation()]

  const results = [
    ratioResult("WhatsApp callbacks at saturation: acknowledged/s", ws.perSecond, bs.perSecond, RATE_TARGET),
    figureResult(`WhatsApp callback -> 200 at ${settings.rate}/s: p99 ms`, wPaced.p99, P99_TARGET_MS),
    figureResult(`WhatsApp callback -> 200 at ${settings.rate}/s, bare server: p99 ms`, bPaced.p99),
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
      figuresRow(`${settings.rate}/s baseline`, bPaced)
    ]),
    "",
    `acknowledged per second: ${(ws.perSecond / bs.perSecond).toFixed(2)}x of the baseline, target >= ${RATE_TARGET}x ${
      ws.perSecond / bs.perSecond >= RATE_TARGET ? "met" : "MISSED"
    }`,
    `p99 to the 200 at ${settings.rate}/s: ${wPaced.p99.toFixed(1)} ms, target <= ${P99_TARGET_MS} ms ${
      wPaced.p99 <= P99_TARGET_MS ? "met" : "MISSED"
    }`,
    `stored: ${stored!.n} rows, one per acknowledged callback`
  ].join("\n"))
  writeResults(results)
}

if (process.argv.includes("--baseline")) await runBaselineServer()
else await runBenchmark(run, { defaultTimeoutMs: 600_000, log })
