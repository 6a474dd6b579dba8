/**
 * 0024: messages in both directions, and the contacts' channels.
 *
 * - `messages` gains who sent it (`direction`), what it holds (`type`, `content`, `context_id`,
 *   `attachments` as JSON), why it failed (`error`), when it was sent, delivered, read or failed,
 *   and the contact channel it travelled on; `broadcast_id` is null for inbound messages and
 *   free-form replies. Existing messages are outbound templates sent at their creation.
 * - `contact_channels (account_id, id, contact_id, platform_third_party_id,
 *   contact_third_party_id, created_at)`: one entry per contact, sending number and WhatsApp id,
 *   removed with its contact. Existing messages get the entry of their contact, number and
 *   recipient.
 * - A provider id names one inbound message of an account (`messages_inbound_provider_idx`): a
 *   message Meta delivers twice is stored once. Outbound ones are looked up by it too.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE messages
      ALTER COLUMN broadcast_id DROP NOT NULL,
      ADD COLUMN contact_channel_id text,
      ADD COLUMN direction text NOT NULL DEFAULT 'outbound' CHECK (direction IN ('outbound', 'inbound')),
      ADD COLUMN type text NOT NULL DEFAULT 'template',
      ADD COLUMN content jsonb,
      ADD COLUMN context_id text,
      ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN error jsonb,
      ADD COLUMN sent_at timestamptz,
      ADD COLUMN delivered_at timestamptz,
      ADD COLUMN read_at timestamptz,
      ADD COLUMN failed_at timestamptz,
      ADD CONSTRAINT messages_status_check CHECK (status IN ('sent', 'delivered', 'read', 'failed', 'received'))
  `
  yield* sql`UPDATE messages SET sent_at = created_at`
  yield* sql`
    CREATE TABLE contact_channels (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      contact_id text NOT NULL,
      platform_third_party_id text NOT NULL,
      contact_third_party_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      UNIQUE (account_id, contact_id, platform_third_party_id, contact_third_party_id),
      FOREIGN KEY (account_id, contact_id) REFERENCES contacts (account_id, id) ON DELETE CASCADE
    )
  `
  // A record id: 4 bytes of Unix seconds, then 8 random bytes, in hex.
  yield* sql`
    INSERT INTO contact_channels (account_id, id, contact_id, platform_third_party_id, contact_third_party_id, created_at)
    SELECT m.account_id,
           lpad(to_hex(floor(extract(epoch FROM min(m.created_at)))::bigint), 8, '0') || substr(md5(random()::text), 1, 16),
           m.contact_id, m.platform_third_party_id, m.receiver_third_party_id, min(m.created_at)
    FROM messages m
    JOIN contacts c ON c.account_id = m.account_id AND c.id = m.contact_id
    GROUP BY m.account_id, m.contact_id, m.platform_third_party_id, m.receiver_third_party_id
  `
  yield* sql`
    UPDATE messages m SET contact_channel_id = cc.id
    FROM contact_channels cc
    WHERE cc.account_id = m.account_id AND cc.contact_id = m.contact_id
      AND cc.platform_third_party_id = m.platform_third_party_id AND cc.contact_third_party_id = m.receiver_third_party_id
  `
  yield* sql`
    CREATE UNIQUE INDEX messages_inbound_provider_idx ON messages (account_id, provider_message_id)
    WHERE direction = 'inbound'
  `
  yield* sql`CREATE INDEX messages_provider_idx ON messages (account_id, provider_message_id)`
})

export default migration
