/**
 * 0012: rate-limit counters (core auth/rate-limiter.ts): one row per key (`token:12`,
 * `login-email:ann@example.com`) with the count of its current window, written by one upsert per
 * limited request.
 *
 * UNLOGGED: the counts are worth a minute or so, so they skip the write-ahead log — the hot path
 * pays no WAL write, and a crash (or a failover to a standby, which does not get unlogged tables)
 * merely starts every count over. No `account_id`: the keys are not an account's data (login
 * counts are per email and per client address, before any account is known), and nothing reads
 * them across keys but the pruning. No index but the key's: a new window rewrites only
 * non-indexed columns (a HOT update), and the pruning's scan every few minutes sees only the keys
 * of the last windows.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE UNLOGGED TABLE rate_limit_buckets (
      key text PRIMARY KEY,
      window_start bigint NOT NULL,
      window_end bigint NOT NULL,
      count integer NOT NULL
    )
  `
})

export default migration
