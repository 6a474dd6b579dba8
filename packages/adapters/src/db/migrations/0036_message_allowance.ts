/**
 * 0036: the monthly message allowance.
 *
 * - `accounts.message_limit`: the allowance of a `custom` plan (null: none); the other plans
 *   carry theirs in the code.
 * - `message_allowance_usage (account_id, month, used)`: template messages used per account and
 *   calendar month (UTC, `month` its first day); one upsert takes a message only while `used` is
 *   below the limit, so concurrent sends queue on the row and never pass it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

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
})

export default migration
