/**
 * 0029: the retention of held statuses (`RetentionPg`, kind `statusHolds`): by when they arrived,
 * so each batch walks this index from its oldest entry.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX message_status_holds_created ON message_status_holds (created_at)`
})

export default migration
