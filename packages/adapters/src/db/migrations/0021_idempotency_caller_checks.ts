/**
 * 0021: the checks of its caller a kept idempotent answer's request passed
 * (`idempotency_keys.caller_checks`, core auth/caller-check.ts), which a replay asks again of its
 * own caller before it answers: a JSON array of checks, set with the answer.
 *
 * Nullable, without a default: NULL on a `pending` row, and on an answer kept before this
 * migration, which is then never replayed (whom it may be shown to is unknown; the key answers 409
 * until it expires, within a day). Adding such a column rewrites no row.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`ALTER TABLE idempotency_keys ADD COLUMN caller_checks jsonb`
})

export default migration
