/**
 * 0023: accounts take turns at the worker's exports, a batch each (`ExportRepositoryPg.claim`):
 * `exports.turn_at`, `turn_seq` with their indexes (claim-turns.ts), numbered from migration
 * 0022's `claim_turns`.
 */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { addClaimTurns } from "./claim-turns.ts"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = addClaimTurns("exports")

export default migration
