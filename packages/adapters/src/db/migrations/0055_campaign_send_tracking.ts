/**
 * 0055: finding the sends of a campaign whose worker died before storing their answer.
 *
 * - `message_status_holds.tracking`: the tracking string the status's send carried (WhatsApp's
 *   `biz_opaque_callback_data`; a campaign's sends carry one naming the campaign and the contact),
 *   NULL for none; `message_status_holds_tracking` finds held statuses by it.
 * - `campaign_recipients_sending` serves the read of a campaign's recipients left `sending`, at
 *   the start of each worker turn, without walking the pending ones.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE message_status_holds ADD COLUMN tracking text`
  yield* sql`
    CREATE INDEX message_status_holds_tracking ON message_status_holds (account_id, tracking)
    WHERE tracking IS NOT NULL
  `
  yield* sql`
    CREATE INDEX campaign_recipients_sending ON campaign_recipients (account_id, campaign_id, seq)
    WHERE status = 'sending'
  `
})

export default migration
