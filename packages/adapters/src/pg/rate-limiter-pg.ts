import { makePruneSchedule, RateLimiter } from "@wasl/core/Auth"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, decodeFirst } from "./rows.ts"

const decodeCount = decodeFirst(Schema.Struct({ count: DbInt }))

/**
 * Rate-limit counts on PostgreSQL (`rate_limit_buckets`, unlogged), shared by every replica on the
 * database: one upsert per hit, committed on its own. The HTTP layer counts a request before its
 * handler opens any transaction, so a request that is rolled back still counts. (Called inside a
 * transaction, the hit would join it: the embedded database runs one transaction at a time, so a
 * connection of its own would wait for the transaction that waits for it.) Ended windows are
 * deleted now and then after a hit, off the request's path.
 */
export const RateLimiterPg: Layer.Layer<RateLimiter, never, SqlClient.SqlClient> = Layer.effect(
  RateLimiter,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pruneDue = makePruneSchedule()
    const prune = (nowMillis: number) =>
      sql`
        WITH pruned AS (DELETE FROM rate_limit_buckets WHERE window_end <= ${nowMillis} RETURNING 1)
        SELECT count(*)::int AS count FROM pruned
      `.pipe(
        Effect.flatMap(decodeCount),
        Effect.map((row) => row._tag === "Some" ? row.value.count : 0),
        Effect.orDie
      )
    return RateLimiter.of({
      // The SET expressions all read the row as it was: a later window starts the count over.
      hit: (key, window) =>
        sql`
          INSERT INTO rate_limit_buckets AS b (key, window_start, window_end, count)
          VALUES (${key}, ${window.start}, ${window.end}, 1)
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN b.window_start < EXCLUDED.window_start THEN 1 ELSE b.count + 1 END,
            window_start = GREATEST(b.window_start, EXCLUDED.window_start),
            window_end = CASE WHEN b.window_start < EXCLUDED.window_start THEN EXCLUDED.window_end ELSE b.window_end END
          RETURNING count
        `.pipe(
          Effect.flatMap(decodeCount),
          Effect.map((row) => row._tag === "Some" ? row.value.count : 1),
          Effect.orDie,
          // Now and then (once per interval per process), the windows ended before this one are
          // deleted in the background: the request does not wait for it.
          Effect.tap(() => pruneDue(window) ? Effect.forkDetach(prune(window.start)) : Effect.void)
        ),
      prune
    })
  })
)
