/**
 * 0011: retention (the `Retention` port in @wasl/core retention/retention.ts, `RetentionPg` in
 * pg/retention-pg.ts). One index per pruning rule, on the rule's age and partial on the rows it
 * may delete, so a pruning batch (`... WHERE <prunable> AND <age> < cutoff ORDER BY <age> LIMIT n
 * FOR UPDATE SKIP LOCKED`) is a range scan of the oldest prunable rows, whatever the table's size.
 *
 * - `deliveries_finished`: finished deliveries (succeeded or failed) by when they finished
 *   (`updated_at`, written with the last attempt). Pending ones are not in it: never pruned.
 *   Their attempts go with them (the foreign key cascades, through `delivery_attempts`' key).
 * - `notifications_prunable`: notifications by when they were read, or, for one never listed
 *   (`stored` off), by its creation.
 * - `otp_verifications_expiry`: OTP verifications by their expiry.
 * - Idempotency keys are pruned by their expiry through 0010's `idempotency_keys_expires_at_idx`.
 *
 * Like `outbox_events_seq`, these indexes do not lead with `account_id`: pruning runs across
 * accounts.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE INDEX deliveries_finished ON deliveries (updated_at) WHERE status <> 'pending'`
  yield* sql`
    CREATE INDEX notifications_prunable ON notifications ((coalesce(read_at, created_at)))
    WHERE read_at IS NOT NULL OR NOT stored
  `
  yield* sql`CREATE INDEX otp_verifications_expiry ON otp_verifications (expires_at)`
})

export default migration
