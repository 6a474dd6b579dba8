/**
 * The soak benchmark (`npx node bench/soak.ts`, 15 minutes, not in CI): `apps/server` under a
 * steady mixed load — `GET /api/me`, `GET /api/deals`, `POST /api/deals` in turn over 10
 * keep-alive connections, at `BENCH_SOAK_RATE` requests per second (100; the n-th request is sent
 * n / rate seconds after the start, or as soon as a connection is free when the server falls
 * behind) — for a warm-up of `BENCH_SOAK_WARMUP_SECONDS` (300) then `BENCH_SOAK_SECONDS` (600),
 * its resident memory sampled every 5 seconds. Reports the memory minute by minute, the first and
 * the last minute's of the soak after the warm-up and the growth between them, against the target
 * of at most 5 %: a leak shows as growth that does not level off. The warm-up lets V8 size its
 * heap for the load first (at 100 requests/s the server's RSS climbs for about four minutes, then
 * stays flat), which is a step, not a leak. Embedded database by default, `BENCH_DATABASE_URL` for PostgreSQL; `BENCH_JSON`
 * takes the figures.
 *
 * @module
 */
import { performance } from "node:perf_hooks"
import { setTimeout as sleep } from "node:timers/promises"
import { startWaslServer, stopChild } from "./support/children.ts"
import { benchDeployment } from "./support/deployment.ts"
import { intFromEnv } from "./support/env.ts"
import { runBenchmark } from "./support/harness.ts"
import { type LoadRequest, makeSender } from "./support/load.ts"
import { figureResult, writeResults } from "./support/results.ts"
import { rssMiB } from "./support/rss.ts"
import { table } from "./support/table.ts"

const log = (message: string) => console.error(`bench:soak: ${message}`)

/** The most the last minute's memory may exceed the first minute's, as a fraction. */
const GROWTH_TARGET = 0.05
const SAMPLE_EVERY_MS = 5_000

const average = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)

const run = async () => {
  const warmup = intFromEnv("BENCH_SOAK_WARMUP_SECONDS", 300, 0)
  const seconds = warmup + intFromEnv("BENCH_SOAK_SECONDS", 600, 120)
  const concurrency = intFromEnv("BENCH_CONCURRENCY", 10, 1)
  const rate = intFromEnv("BENCH_SOAK_RATE", 100, 1)
  const { databaseLabel, env, token } = await benchDeployment(log)
  const wasl = await startWaslServer({ ...env, WASL_RATE_LIMIT: "0" })
  const sender = await makeSender(wasl.origin, { accept: "application/json", authorization: `Bearer ${token}` }, concurrency)
  const mix: ReadonlyArray<readonly [LoadRequest, number]> = [
    [{ method: "GET", path: "/api/me" }, 200],
    [{ method: "GET", path: "/api/deals" }, 200],
    [{ method: "POST", path: "/api/deals", body: JSON.stringify({ deal_name: "Soak", amount: 1 }) }, 201]
  ]
  const samples: Array<{ readonly at: number; readonly rss: number }> = []
  const started = performance.now()
  const elapsed = () => (performance.now() - started) / 1000
  const timer = setInterval(() => {
    const rss = rssMiB(wasl.child.child.pid)
    if (rss !== undefined) samples.push({ at: elapsed(), rss })
  }, SAMPLE_EVERY_MS)
  let requests = 0
  log(`${seconds} s of mixed load on ${databaseLabel}...`)
  try {
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (elapsed() < seconds) {
        const n = requests++
        const early = n / rate - elapsed()
        if (early > 0) await sleep(early * 1000)
        const [request, expected] = mix[n % mix.length]!
        const reply = await sender.send(request)
        if (reply.status !== expected) throw new Error(`${request.method} ${request.path}: status ${reply.status}: ${reply.text()}`)
      }
    }))
  } finally {
    clearInterval(timer)
    await sender.close()
    await stopChild(wasl.child)
  }
  const steady = samples.filter((s) => s.at >= warmup)
  if (steady.length === 0) throw new Error("no memory samples (is /proc readable?)")
  const firstMinute = average(steady.filter((s) => s.at < warmup + 60).map((s) => s.rss))
  const lastMinute = average(steady.filter((s) => s.at >= seconds - 60).map((s) => s.rss))
  const growth = lastMinute - firstMinute
  const minutes = Array.from({ length: Math.ceil(seconds / 60) }, (_, m) => samples.filter((s) => s.at >= m * 60 && s.at < (m + 1) * 60))
    .filter((inMinute) => inMinute.length > 0)
    .map((inMinute, m) => [`minute ${m + 1}`, average(inMinute.map((s) => s.rss)).toFixed(1)])
  console.log([
    `Wasl soak, ${warmup} s of warm-up then ${seconds - warmup} s of GET /api/me, GET /api/deals, POST /api/deals in turn, ${concurrency} connections at ${rate} requests/s; ${databaseLabel}`,
    `  ${requests} requests (${(requests / seconds).toFixed(0)}/s)`,
    "",
    table([
      ["apps/server RSS (MiB)", "value"],
      ...minutes,
      [`first minute after the ${warmup} s warm-up`, firstMinute.toFixed(1)],
      ["last minute", lastMinute.toFixed(1)],
      ["peak", Math.max(...steady.map((s) => s.rss)).toFixed(1)],
      ["growth", `${growth.toFixed(1)} (${(100 * growth / firstMinute).toFixed(1)} %, target <= ${100 * GROWTH_TARGET} %)`]
    ])
  ].join("\n"))
  writeResults([
    figureResult("soak: apps/server RSS growth, first to last minute (fraction)", growth / firstMinute, GROWTH_TARGET),
    figureResult("soak: apps/server RSS growth, first to last minute (MiB)", growth),
    figureResult("soak: apps/server RSS peak (MiB)", Math.max(...steady.map((s) => s.rss)))
  ])
}

await runBenchmark(run, { defaultTimeoutMs: 30 * 60_000, log })
