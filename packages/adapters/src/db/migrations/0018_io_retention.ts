/**
 * 0018: the retention of finished CSV imports and exports (`RetentionPg`, kinds `imports` and
 * `exports`). One partial index per rule, on exactly the rule's age and over only the rows it may
 * prune, so each batch walks it from its oldest entry and never reads the waiting ones:
 *
 * - `imports_finished`: completed or failed imports by `finished_at` (their staged rows go with
 *   them, by cascade);
 * - `exports_finished`: completed exports by their expiry, failed ones by when they failed (their
 *   chunks, already pruned for a completed one, go with them).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX imports_finished ON imports (finished_at) WHERE status IN ('completed', 'failed')`
  yield* sql`
    CREATE INDEX exports_finished ON exports ((coalesce(expires_at, updated_at)))
    WHERE status IN ('completed', 'failed')
  `
})

export default migration
