/**
 * 0019: the retention of finished OTP reservations (`RetentionPg`, kind `reservations`): settled
 * and released ones by when their send's outcome was stored, so each batch walks this index from
 * its oldest entry and never reads the open ones (the sweeper's, `otp_reservations_open_idx`).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX otp_reservations_finished ON otp_reservations (updated_at) WHERE status <> 'open'`
})

export default migration
