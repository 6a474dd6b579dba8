/**
 * 0013: recovery of failed deliveries (`POST /api/account/webhooks/{id}/recover`; the
 * `takeFailed` method of the `DeliveryRepository` port).
 *
 * - `deliveries.recovered_at`: when a recovery queued a fresh delivery of this failed one; null
 *   until then. It is what keeps a second recovery from queueing the same delivery again.
 * - `deliveries_recoverable`: the failed deliveries not yet recovered, per webhook, by when they
 *   ended (`updated_at`, written with the last attempt or the cancellation), so a recovery is a
 *   range scan of exactly the rows it takes, however many succeeded or were recovered before.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`ALTER TABLE deliveries ADD COLUMN recovered_at timestamptz`
  yield* sql`
    CREATE INDEX deliveries_recoverable ON deliveries (account_id, webhook_id, updated_at, id)
    WHERE status = 'failed' AND recovered_at IS NULL
  `
})

export default migration
