/**
 * 0036: the monthly message allowance.
 *
 * - `accounts.message_limit`: the allowance of a `custom` plan (null: none); the other plans
 *   carry theirs in the code.
 * - `message_allowance_usage (account_id, month, used)`: template messages used per account and
 *   calendar month (UTC, `month` its first day); one upsert takes a message only while `used` is
 *   below the limit, so concurrent sends queue on the row and never pass it. `GET /api/me` shows
 *   the count, so each change announces `me:<account>` on the processes' cache channel (as
 *   migration 0020's triggers; `accounts` already announces its own).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { createCacheTriggers } from "./cache-triggers.ts"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN message_limit integer CHECK (message_limit >= 0)`
  yield* sql`
    CREATE TABLE message_allowance_usage (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      month date NOT NULL,
      used integer NOT NULL CHECK (used >= 0),
      PRIMARY KEY (account_id, month)
    )
  `
  yield* createCacheTriggers("me_cache_notify", [
    ["message_allowance_usage", "INSERT OR DELETE OR UPDATE", "'me', 'account_id'"]
  ])
})

export default migration
