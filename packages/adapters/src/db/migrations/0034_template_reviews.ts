/**
 * 0034: Meta's review of the broadcasts' templates.
 *
 * - `broadcasts.status` takes every review status Meta reports: PAUSED, DISABLED,
 *   PENDING_DELETION and FLAGGED beside APPROVED, PENDING and REJECTED.
 * - Meta's review webhook names a template by Meta's id and the WhatsApp Business Account only, so
 *   it is found across accounts (as a received message's number is, by `phone_id`): these two
 *   indexes do not lead with `account_id`, and the lookup they serve keeps to one account (core
 *   use-cases/template-reviews.ts).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE broadcasts DROP CONSTRAINT broadcasts_status_check`
  yield* sql`
    ALTER TABLE broadcasts ADD CONSTRAINT broadcasts_status_check
      CHECK (status IN ('APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED', 'PENDING_DELETION', 'FLAGGED'))
  `
  yield* sql`CREATE INDEX message_templates_external_id ON message_templates (external_id) WHERE external_id IS NOT NULL`
  yield* sql`CREATE INDEX platforms_waba_id ON platforms (waba_id) WHERE waba_id IS NOT NULL`
})

export default migration
