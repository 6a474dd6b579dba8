/**
 * The pruning benchmark (`npx node bench/prune.ts`: Node 24, the `node` devDependency): how fast
 * the worker's retention batches delete a million old delivery attempts on PostgreSQL, how long
 * one batch holds its locks, and what pruning costs deliveries going on. See bench/README.md
 * ("The pruning benchmark").
 *
 * 1. Creates a database `wasl_bench_<random>` on `BENCH_DATABASE_URL` (default
 *    `postgres://postgres@127.0.0.1:5432/postgres`), migrates it, and makes an account and a webhook.
 * 2. Baseline: a delivery writer alone for `BENCH_SECONDS` (5): the worker's database work for a
 *    delivery — insert 10 due deliveries, claim them, record each one's successful attempt
 *    (`DeliveryRepositoryPg`) — in a loop; deliveries recorded per second.
 * 3. Seeds 200,000 deliveries that finished 60 days ago with 5 attempts each (a million attempts,
 *    one statement) and prunes them alone with `RetentionPg.pruneBatch` (`BENCH_PRUNE_BATCH`
 *    deliveries a statement, 500 by default as in the worker), timing every batch.
 * 4. Seeds the same again and prunes it while the writer of step 2 runs.
 * 5. Prints the figures and drops the database (also on failure, Ctrl-C or `BENCH_TIMEOUT_MS`).
 *
 * A batch is one autocommitted statement, so its duration is the longest any of its row locks is
 * held.
 *
 * @module
 */
import { PgClient } from "@effect/sql-pg"
import { DeliveryRepositoryPg, MigrationsLive, pgClientOptions, RetentionPg } from "@wasl/adapters/Postgres"
import { DeliveryRepository } from "@wasl/core/Deliveries"
import { Retention } from "@wasl/core/Retention"
import { DateTime, Duration, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { performance } from "node:perf_hooks"
import { seedOldDeliveries } from "../test/support/old-deliveries.ts"
import { createBenchDatabase } from "./support/database.ts"
import { intFromEnv } from "./support/env.ts"
import { atCleanup, runBenchmark } from "./support/harness.ts"
import { figureResult, ratioResult, writeResults } from "./support/results.ts"
import { ms, table } from "./support/table.ts"

const settings = {
  url: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  batch: intFromEnv("BENCH_PRUNE_BATCH", 500, 1),
  seconds: intFromEnv("BENCH_SECONDS", 5, 1)
}

const OLD_DELIVERIES = 200_000
const ATTEMPTS_EACH = 5

const log = (message: string) => console.error(`bench:prune: ${message}`)

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** What one pruning run measured. */
interface PruneFigures {
  readonly seconds: number
  readonly deliveries: number
  readonly batches: ReadonlyArray<number>
}

const run = async () => {
  const database = await createBenchDatabase(settings.url)
  atCleanup(database.drop)

  const runtime = ManagedRuntime.make(
    Layer.mergeAll(RetentionPg, DeliveryRepositoryPg).pipe(
      Layer.provideMerge(MigrationsLive),
      Layer.provideMerge(PgClient.layer({ ...pgClientOptions, url: Redacted.make(database.url), maxConnections: 4 }))
    )
  )
  atCleanup(() => runtime.dispose())
  const sql = await runtime.runPromise(Effect.service(SqlClient.SqlClient))

  const [account] = await runtime.runPromise(sql<{ id: string }>`
    INSERT INTO accounts (name, created_at, updated_at) VALUES ('prune bench', now(), now()) RETURNING id
  `)
  const accountId = Number(account!.id)
  const [hook] = await runtime.runPromise(sql<{ id: string }>`
    INSERT INTO webhooks (account_id, url, secret_sealed, is_validated, is_active, created_at, updated_at)
    VALUES (${accountId}, 'https://receiver.example/hook', 'sealed', true, true, now(), now()) RETURNING id
  `)
  const webhookId = Number(hook!.id)

  /** The worker's database work for 10 deliveries: insert, claim, record a successful attempt each. */
  const deliverTen = Effect.gen(function*() {
    const repo = yield* DeliveryRepository
    const now = yield* DateTime.now
    yield* repo.insert(Array.from({ length: 10 }, () => ({
      accountId,
      id: randomUUID(),
      webhookId,
      event: "deal-created" as const,
      body: `{"time":1,"event":"deal-created","deal":{}}`,
      eventId: randomUUID(),
      state: { status: "pending" as const, attempts: 0, nextAttemptAt: now },
      createdAt: now
    })))
    const claimed = yield* repo.claimDue(10, Duration.minutes(1))
    const recorded = yield* repo.recordAttempts(claimed.map((d) => ({
      lease: { accountId: d.accountId, id: d.id, claimedUntil: d.claimedUntil },
      state: { status: "succeeded" as const, attempts: 1, nextAttemptAt: null },
      attempt: { number: 1, at: now, statusCode: 200, durationMillis: 1, error: null, responseExcerpt: "" },
      clearsFailures: true
    })))
    return recorded.size
  })

  /** Runs the writer until `stop` says so; answers deliveries recorded per second. */
  const writer = async (stop: () => boolean) => {
    const started = performance.now()
    let delivered = 0
    while (!stop()) delivered += await runtime.runPromise(deliverTen)
    return delivered / ((performance.now() - started) / 1000)
  }

  const seed = async (idPrefix: string) => {
    const started = performance.now()
    await runtime.runPromise(seedOldDeliveries(sql, {
      accountId,
      webhookId,
      deliveries: OLD_DELIVERIES,
      attemptsEach: ATTEMPTS_EACH,
      finishedAgo: "60 days",
      idPrefix
    }))
    return (performance.now() - started) / 1000
  }

  const prune = async (): Promise<PruneFigures> => {
    const cutoff = DateTime.subtractDuration(DateTime.nowUnsafe(), Duration.days(30))
    const batches: Array<number> = []
    let deliveries = 0
    const started = performance.now()
    while (true) {
      const before = performance.now()
      const n = await runtime.runPromise(Retention.use((retention) => retention.pruneBatch("deliveries", cutoff, settings.batch)))
      batches.push(performance.now() - before)
      deliveries += n
      if (n < settings.batch) break
    }
    return { seconds: (performance.now() - started) / 1000, deliveries, batches: batches.sort((a, b) => a - b) }
  }

  log(`writer alone for ${settings.seconds} s...`)
  const until = performance.now() + settings.seconds * 1000
  const alone = await writer(() => performance.now() > until)

  log(`seeding ${OLD_DELIVERIES * ATTEMPTS_EACH} attempts...`)
  const seeded = await seed("0001")
  log(`pruning them alone, ${settings.batch} deliveries a batch...`)
  const quiet = await prune()

  log("seeding again, then pruning while the writer runs...")
  await seed("0002")
  let pruning = true
  const during = writer(() => !pruning)
  const loaded = await prune().finally(() => (pruning = false))
  const duringRate = await during

  const left = await runtime.runPromise(sql<{ n: string }>`SELECT count(*) AS n FROM delivery_attempts`)
  const row = (label: string, f: PruneFigures) => [
    label,
    f.seconds.toFixed(1),
    String(f.deliveries),
    Math.round((f.deliveries * ATTEMPTS_EACH) / f.seconds).toLocaleString("en"),
    ms(percentile(f.batches, 50)),
    ms(percentile(f.batches, 99)),
    ms(f.batches[f.batches.length - 1]!)
  ]
  console.log(`\nPruning ${(OLD_DELIVERIES * ATTEMPTS_EACH).toLocaleString("en")} attempts (${OLD_DELIVERIES.toLocaleString("en")} deliveries), ${settings.batch} deliveries a batch; seeding took ${seeded.toFixed(1)} s\n`)
  console.log(table([
    ["", "s", "deliveries", "attempts/s", "batch p50 ms", "p99 ms", "max ms"],
    row("alone", quiet),
    row("while delivering", loaded)
  ]))
  console.log(`\nDeliveries recorded by the writer: ${Math.round(alone)}/s alone, ${Math.round(duringRate)}/s while pruning`)
  console.log(`Attempts left (the writer's own): ${left[0]!.n}`)
  // For information: pruning's pace, its longest lock, and what it costs deliveries going on.
  writeResults([
    figureResult("pruning alone: attempts/s", (quiet.deliveries * ATTEMPTS_EACH) / quiet.seconds),
    figureResult("pruning batch p99, while delivering: ms", percentile(loaded.batches, 99)),
    ratioResult("deliveries recorded while pruning / alone: deliveries/s", duringRate, alone, null)
  ])
}

await runBenchmark(run, { defaultTimeoutMs: 10 * 60_000, log })
