/**
 * The idempotency benchmark (`npx node bench/idempotency.ts`): what an `Idempotency-Key` costs a
 * create, and what a replay costs, on the real HTTP service. See bench/README.md.
 *
 * 1. Makes a temporary `WASL_DATA_DIR` (embedded database), or with `BENCH_DATABASE_URL` a fresh
 *    database `wasl_bench_<random>` on that server; creates an account and its owner token with
 *    the CLI; starts `apps/server` as a child process on loopback.
 * 2. Three closed loops of `BENCH_REQUESTS` (2,000) requests after `BENCH_WARMUP` (200), over
 *    `BENCH_CONCURRENCY` (10) keep-alive connections, each with one request in flight:
 *    - `POST /api/contacts` without the header (the baseline: the path every create takes today);
 *    - the same with a fresh `Idempotency-Key` on each request (claim, hash, sealed answer kept in
 *      the create's transaction);
 *    - replays: the same request with one of 100 keys already used (lookup, open, answer);
 *    - the first loop again, whose spread from the first shows the drift of the run.
 *    Every create must answer 201 (a replay, 201 with `Idempotent-Replayed: true`).
 * 3. Prints req/s and p50 / p95 / p99 per loop and the ratios to the baseline; stops the server,
 *    removes the directory or drops the database (also on failure, Ctrl-C or `BENCH_TIMEOUT_MS`,
 *    5 minutes).
 *
 * @module
 */
import * as Http from "node:http"
import * as Os from "node:os"
import { performance } from "node:perf_hooks"
import { startWaslServer, stopChild } from "./support/children.ts"
import { benchDeployment } from "./support/deployment.ts"
import { intFromEnv } from "./support/env.ts"
import { atCleanup, runBenchmark } from "./support/harness.ts"
import { ratioResult, writeResults } from "./support/results.ts"
import { ms, table } from "./support/table.ts"

interface Figures {
  readonly perSecond: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
}

const percentile = (sorted: Float64Array, p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!

/** One POST over `agent`; resolves with the status and the replay header once the body is read. */
const post = (agent: Http.Agent, origin: string, path: string, headers: Record<string, string>, body: string) =>
  new Promise<{ status: number; replayed: boolean }>((resolve, reject) => {
    const request = Http.request(`${origin}${path}`, {
      method: "POST",
      agent,
      headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      timeout: 10_000
    }, (response) => {
      response.resume()
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, replayed: response.headers["idempotent-replayed"] === "true" }))
      response.on("error", reject)
    })
    request.on("timeout", () => request.destroy(new Error("request timed out")))
    request.on("error", reject)
    request.end(body)
  })

/** `total` requests (the i-th with the headers `headersOf(i)`) over `concurrency` loops; each must be 201. */
const load = async (
  agent: Http.Agent,
  origin: string,
  total: number,
  concurrency: number,
  headersOf: (i: number) => Record<string, string>,
  replays: boolean
): Promise<Figures> => {
  const latencies = new Float64Array(total)
  let next = 0
  const loop = async () => {
    for (let i = next++; i < total; i = next++) {
      const started = performance.now()
      const reply = await post(agent, origin, "/api/contacts", headersOf(i), JSON.stringify({ firstname: "Bench", lastname: "Contact" }))
      latencies[i] = performance.now() - started
      if (reply.status !== 201 || reply.replayed !== replays) {
        throw new Error(`request ${i}: status ${reply.status}, replayed ${reply.replayed}`)
      }
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, loop))
  const seconds = (performance.now() - started) / 1000
  latencies.sort()
  return { perSecond: total / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) }
}

const run = async () => {
  const settings = {
    requests: intFromEnv("BENCH_REQUESTS", 2000, 1),
    warmup: intFromEnv("BENCH_WARMUP", 200, 0),
    concurrency: intFromEnv("BENCH_CONCURRENCY", 10, 1)
  }
  const { databaseLabel, env, token } = await benchDeployment((message) => console.error(`bench: ${message}`))
  const headers = { accept: "application/json", authorization: `Bearer ${token}` }
  console.error("bench: starting apps/server...")
  const wasl = await startWaslServer({ ...env, WASL_RATE_LIMIT: "0" })
  const agent = new Http.Agent({ keepAlive: true, maxSockets: settings.concurrency })
  atCleanup(() => agent.destroy())
  const run = async (name: string, headersOf: (i: number) => Record<string, string>, replays: boolean) => {
    console.error(`bench: ${name}: ${settings.warmup} warm-up + ${settings.requests} requests...`)
    if (settings.warmup > 0) await load(agent, wasl.origin, settings.warmup, settings.concurrency, (i) => headersOf(i + 1e9), replays)
    return load(agent, wasl.origin, settings.requests, settings.concurrency, headersOf, replays)
  }
  const plain = await run("without a key", () => headers, false)
  const keyed = await run("a fresh key each", (i) => ({ ...headers, "idempotency-key": `fresh-${i}` }), false)
  const kept = 100
  for (let k = 0; k < kept; k++) {
    const reply = await post(agent, wasl.origin, "/api/contacts", { ...headers, "idempotency-key": `kept-${k}` }, JSON.stringify({ firstname: "Bench", lastname: "Contact" }))
    if (reply.status !== 201) throw new Error(`seeding key ${k}: status ${reply.status}`)
  }
  const replayed = await run("replays", (i) => ({ ...headers, "idempotency-key": `kept-${i % kept}` }), true)
  // The first loop again: the spread between the two is the drift of the machine and the tables.
  const plainAgain = await run("without a key, again", () => headers, false)
  await stopChild(wasl.child)

  const cpus = Os.cpus()
  const row = (name: string, f: Figures) => [
    name,
    f.perSecond.toFixed(0),
    ms(f.p50),
    ms(f.p95),
    ms(f.p99),
    `${(f.perSecond / plain.perSecond).toFixed(2)}x`,
    `${(f.p50 / plain.p50).toFixed(2)}x`
  ]
  console.log([
    `Wasl idempotency benchmark, ${new Date().toISOString()}`,
    `  POST /api/contacts: ${settings.requests} requests after ${settings.warmup} warm-up per row,`,
    `  ${settings.concurrency} concurrent keep-alive connections (node:http Agent), loopback`,
    `  database: ${databaseLabel}`,
    `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
    "",
    table([
      ["", "req/s", "p50 ms", "p95 ms", "p99 ms", "req/s vs none", "p50 vs none"],
      row("no key", plain),
      row("fresh key", keyed),
      row("replay", replayed),
      row("no key, again", plainAgain)
    ])
  ].join("\n"))
  // For information: what a key costs a create, what a replay answers, against the plain create.
  writeResults([
    ratioResult("POST /api/contacts with a fresh Idempotency-Key / without: req/s", keyed.perSecond, plain.perSecond, null),
    ratioResult("POST /api/contacts replayed / created: req/s", replayed.perSecond, plain.perSecond, null)
  ])
}

await runBenchmark(run, { defaultTimeoutMs: 300_000, log: (message) => console.error(`bench: ${message}`) })
