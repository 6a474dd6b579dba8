/**
 * 0049: the retention of invitations (`RetentionPg`, kind `invitations`): by when they were
 * accepted or revoked, or else expired, so each batch walks this index from its oldest entry.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX invitations_finished ON invitations ((coalesce(accepted_at, revoked_at, expires_at)))`
})

export default migration
