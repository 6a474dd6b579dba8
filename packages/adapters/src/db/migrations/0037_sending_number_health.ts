/**
 * 0037: what Meta says of a sending number: its verified name, code verification status, quality
 * rating and messaging limit tier (all null until Meta has told, and always null on the sandbox,
 * which has no Meta number behind it).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE platforms
      ADD COLUMN verified_name text,
      ADD COLUMN code_verification_status text,
      ADD COLUMN quality_rating text,
      ADD COLUMN messaging_limit_tier text
  `
})

export default migration
