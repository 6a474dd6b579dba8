/**
 * 0001: extensions. `pg_trgm` (trigram similarity and GIN/GiST trigram indexes) backs the record
 * search. PostgreSQL ships it in contrib; PGlite has it as a bundle that embedded-postgres.ts
 * passes to PGlite's `extensions` option, so `CREATE EXTENSION` works on both.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`
})

export default migration
