/**
 * The RateLimiter contract: `RateLimiterMemory`, and `RateLimiterPg` on PGlite, and on PostgreSQL
 * when TEST_DATABASE_URL (or DATABASE_URL) is set; and both adapters forgetting ended windows on
 * their own as hits come, a prune interval after their first.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { RATE_LIMIT_PRUNE_INTERVAL, RateLimiter, type RateWindow } from "@wasl/core/Auth"
import { Duration, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { MigrationsLive } from "../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { RateLimiterMemory } from "../src/memory/index.ts"
import { RateLimiterPg } from "../src/pg/index.ts"
import { rateLimiterContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

rateLimiterContract("rate limiter in memory", repositoriesInMemory)

rateLimiterContract("rate limiter on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  rateLimiterContract("rate limiter on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})

const MINUTE = 60_000
const minute = (n: number): RateWindow => ({ start: n * MINUTE, end: (n + 1) * MINUTE })
const later = Duration.toMillis(RATE_LIMIT_PRUNE_INTERVAL) / MINUTE

describe("pruning as hits come", () => {
  it.effect("in memory: a hit a prune interval after the first forgets the windows ended by its own", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* limiter.hit("old", minute(0))
      yield* limiter.hit("old", minute(0))
      yield* limiter.hit("other", minute(later - 1))
      assert.strictEqual(yield* limiter.hit("old", minute(0)), 3, "not yet: the interval has not passed")
      yield* limiter.hit("other", minute(later))
      assert.strictEqual(yield* limiter.prune(minute(later).start), 0, "the hit pruned them already")
    }).pipe(Effect.provide(RateLimiterMemory)))

  const onPglite = RateLimiterPg.pipe(Layer.provideMerge(MigrationsLive), Layer.provideMerge(TestDatabase.pglite))
  layer(onPglite, { excludeTestServices: true })("on PGlite", (it) => {
    it.effect("a hit a prune interval after the first deletes the ended windows, off the request's path", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const sql = yield* SqlClient.SqlClient
        yield* limiter.hit("old", minute(0))
        yield* limiter.hit("other", minute(later))
        const left = sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM rate_limit_buckets WHERE key = 'old'`.pipe(
          Effect.map((rows) => rows[0]!.n)
        )
        // The deletion runs in the background: wait for it (bounded), without asserting on time.
        const n = yield* left.pipe(
          Effect.repeat({ until: (n) => n === 0, schedule: Schedule.spaced("20 millis"), times: 250 })
        )
        assert.strictEqual(n, 0)
        assert.strictEqual(yield* limiter.hit("other", minute(later)), 2, "the live window is kept")
      }))
  })
})
