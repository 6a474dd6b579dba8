/**
 * 0027: statuses that arrived before their message, every message on a channel entry, and the
 * message events in the outbox.
 *
 * `message_status_holds (account_id, provider_message_id, status, at, error, created_at)`: a
 * provider's report of a message's status (`sent`, `delivered`, `read`, `failed` with its error)
 * whose message the account has not stored yet, one per message and status (the first report
 * kept). The send that stores the message takes them and applies them.
 * - Every message names its contact's channel entry (`contact_channel_id NOT NULL`). The few that
 *   0024 could not give one (their contact was deleted before, and its entries with it) get an id
 *   per contact, number and recipient, as a message does whose contact is deleted later.
 * - `outbox_events.name` takes the message events (`message-received`, `message-status-updated`)
 *   beside the 72 record events.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE message_status_holds (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      provider_message_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
      at timestamptz NOT NULL,
      error jsonb,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, provider_message_id, status)
    )
  `
  // A record id: 4 bytes of Unix seconds, then 8 bytes of a digest of the entry's key, in hex.
  yield* sql`
    UPDATE messages m SET contact_channel_id = orphan.id
    FROM (
      SELECT account_id, contact_id, platform_third_party_id, receiver_third_party_id,
             lpad(to_hex(floor(extract(epoch FROM min(created_at)))::bigint), 8, '0')
               || substr(md5(account_id || ' ' || contact_id || ' ' || platform_third_party_id || ' ' || receiver_third_party_id), 1, 16) AS id
      FROM messages WHERE contact_channel_id IS NULL
      GROUP BY account_id, contact_id, platform_third_party_id, receiver_third_party_id
    ) orphan
    WHERE m.contact_channel_id IS NULL AND m.account_id = orphan.account_id AND m.contact_id = orphan.contact_id
      AND m.platform_third_party_id = orphan.platform_third_party_id
      AND m.receiver_third_party_id = orphan.receiver_third_party_id
  `
  yield* sql`ALTER TABLE messages ALTER COLUMN contact_channel_id SET NOT NULL`
  yield* sql`
    ALTER TABLE outbox_events
      DROP CONSTRAINT outbox_events_name_check,
      ADD CONSTRAINT outbox_events_name_check CHECK (
        name ~ '^(contact|company|deal|ticket|invoice|product)-(property-group-|property-|note-)?(created|updated|deleted)$'
        OR name IN ('message-received', 'message-status-updated')
      )
  `
})

export default migration
