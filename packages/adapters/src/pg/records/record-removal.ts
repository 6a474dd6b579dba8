/**
 * A record's rows deleted for good: its row (its links and a contact's channel entries go with it
 * through their foreign keys, and the counters through their triggers), its custom values' side
 * rows and its notes, which are polymorphic over the kinds, so no foreign key can take them.
 * Shared by the final delete and the trash, which deletes a record the same way once it has kept it.
 *
 * @module
 */
import type { RecordRef } from "@wasl/core/Records"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { KIND_STORAGE } from "./storage.ts"

/** Deletes the record's rows (within the caller's transaction); false when there was no record. */
export const deleteRecordRows = (sql: SqlClient.SqlClient, key: RecordRef): Effect.Effect<boolean, SqlError> =>
  Effect.gen(function*() {
    const deleted = yield* sql`
      DELETE FROM ${sql(KIND_STORAGE[key.kind].table)} WHERE account_id = ${key.accountId}::int8 AND id = ${key.id} RETURNING id
    `
    if (deleted.length === 0) return false
    const scope = sql`account_id = ${key.accountId}::int8 AND kind = ${key.kind} AND record_id = ${key.id}`
    yield* sql`DELETE FROM record_values WHERE ${scope}`
    yield* sql`DELETE FROM record_value_elements WHERE ${scope}`
    yield* sql`DELETE FROM notes WHERE account_id = ${key.accountId}::int8 AND object_type = ${key.kind} AND record_id = ${key.id}`
    return true
  })
