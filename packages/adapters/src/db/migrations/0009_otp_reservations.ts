/**
 * 0009: OTP reservations (one credit per accepted send-otp; core messaging/otp-reservation.ts).
 *
 * A row per send-otp that charged a credit: `open` from the charge until the send's outcome is
 * stored, then `settled` (the send happened, the credit stays spent) or `released` (the credit was
 * given back: the provider refused, or the sweeper found it left open by a stopped process).
 * The partial index is the sweeper's: open rows by age, across accounts. The key leads with
 * `account_id` like every other (tenancy is structural: a table sharded on it needs no change).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE otp_reservations (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      recipient text NOT NULL,
      status text NOT NULL CHECK (status IN ('open', 'settled', 'released')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id)
    )
  `
  yield* sql`CREATE INDEX otp_reservations_open_idx ON otp_reservations (created_at) WHERE status = 'open'`
})

export default migration
