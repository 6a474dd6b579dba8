/**
 * 0026: the indexes of conversations and of the media fetch.
 *
 * A contact's thread and its latest message read `messages_account_contact_idx` (0008) backwards.
 * - `messages_unread_idx (account_id, contact_id) WHERE inbound and received`: the inbox's unread
 *   counts and marking a conversation read touch only the unread rows.
 * - `messages_pending_media_idx (created_at, account_id, id) WHERE inbound with a pending
 *   attachment`: the worker's media backlog, empty once every file is fetched.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE INDEX messages_unread_idx ON messages (account_id, contact_id)
    WHERE direction = 'inbound' AND status = 'received'
  `
  yield* sql`
    CREATE INDEX messages_pending_media_idx ON messages (created_at, account_id, id)
    WHERE direction = 'inbound' AND attachments @> '[{"state": "pending"}]'::jsonb
  `
})

export default migration
