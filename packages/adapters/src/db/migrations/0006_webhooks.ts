/**
 * 0006: webhooks and their subscriptions (the `WebhookRepository` port in
 * @wasl/core webhooks/webhook-repository.ts, `WebhookRepositoryPg` in pg/webhook-repository-pg.ts),
 * and the channel flags and mail queue of notifications (stored, popup, browser, email).
 *
 * - `webhooks.id` is the primary key on its own because deliveries (0007) reference it; the
 *   tenant index `(account_id, id)` serves every account-scoped lookup.
 * - `secret_sealed` is SecretBox's AES-GCM box of the secret, never the secret itself.
 * - `webhook_events` carries `account_id` too (tenancy is structural) and the index
 *   `(account_id, name)` finds the webhooks subscribed to an event at fan-out; a name appears
 *   once per webhook.
 * - notifications gain the channels of the preference they were written under (`stored` ones
 *   are listed and counted unread; `popup`/`browser` are flags for the dashboard), `updated_at`
 *   (null on rows written before it: read as `created_at`),
 *   and the queued mail (`email_subject`, `email_text`), sent by the mail loop: rows with an
 *   unsent mail are in the partial index `notifications_email_queue`, claimed oldest first.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE webhooks (
      id bigserial PRIMARY KEY,
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      url text NOT NULL,
      secret_sealed text NOT NULL,
      is_validated boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT false,
      consecutive_failures integer NOT NULL DEFAULT 0,
      last_failure_at timestamptz NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX webhooks_account_id_idx ON webhooks (account_id, id)`

  yield* sql`
    CREATE TABLE webhook_events (
      id bigserial PRIMARY KEY,
      account_id bigint NOT NULL,
      webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      name text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT webhook_events_webhook_name_key UNIQUE (webhook_id, name)
    )
  `
  yield* sql`CREATE INDEX webhook_events_account_name_idx ON webhook_events (account_id, name)`

  yield* sql`
    ALTER TABLE notifications
      ADD COLUMN stored boolean NOT NULL DEFAULT true,
      ADD COLUMN popup boolean NOT NULL DEFAULT true,
      ADD COLUMN browser boolean NOT NULL DEFAULT true,
      ADD COLUMN updated_at timestamptz,
      ADD COLUMN email_subject text,
      ADD COLUMN email_text text,
      ADD COLUMN emailed_at timestamptz,
      ADD COLUMN email_attempts integer NOT NULL DEFAULT 0
  `
  yield* sql`
    CREATE INDEX notifications_email_queue ON notifications (created_at)
    WHERE email_subject IS NOT NULL AND emailed_at IS NULL
  `
  yield* sql`CREATE INDEX notifications_account_user_stored_idx ON notifications (account_id, user_id, id) WHERE stored`
})

export default migration
