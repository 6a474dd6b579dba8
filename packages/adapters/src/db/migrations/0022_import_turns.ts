/**
 * 0022: accounts take turns at the worker's imports, a batch each (`ImportRepositoryPg.claim`):
 * the sequence `claim_turns`, and `imports.turn_at`, `turn_seq` with their indexes
 * (claim-turns.ts).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { addClaimTurns } from "./claim-turns.ts"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE SEQUENCE claim_turns`
  yield* addClaimTurns("imports")
})

export default migration
