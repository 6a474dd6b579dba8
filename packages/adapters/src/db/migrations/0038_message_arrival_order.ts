/**
 * 0038: the order in which messages were stored, `messages.seq`.
 *
 * WhatsApp gives a received message's time in whole seconds, and a record id's random part says
 * nothing of order, so messages of one second need a tie-breaker that follows their arrival: an
 * identity column, increasing with each insert. A contact's thread walks
 * `messages_account_contact_idx` on (account_id, contact_id, created_at, seq) backwards, newest
 * first, with no sort. Messages stored before this migration take their numbers in no particular
 * order; their ties were arbitrary already.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE messages ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`
  yield* sql`DROP INDEX messages_account_contact_idx`
  yield* sql`CREATE INDEX messages_account_contact_idx ON messages (account_id, contact_id, created_at, seq)`
})

export default migration
