import { HISTORY_SOURCES, type HistoryEntry, OBJECT_KINDS, PropertyHistoryRepository, StoredValue } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeRows } from "./rows.ts"

const HistoryRow = Schema.Struct({
  id: Schema.String,
  account_id: DbInt,
  kind: Schema.Literals(OBJECT_KINDS),
  record_id: Schema.String,
  property: Schema.String,
  value: DbNullOr(StoredValue),
  previous_value: DbNullOr(StoredValue),
  source: Schema.Literals(HISTORY_SOURCES),
  user_id: DbNullOr(DbInt),
  changed_at: DbTimestamp
})

const decodeAll = decodeRows(HistoryRow)

/** PostgreSQL's limit on a statement's parameters, over the 10 columns of a row. */
const ROWS_PER_STATEMENT = Math.floor(65_535 / 10)

/** A stored value as its jsonb parameter (NULL: none). */
const jsonOf = (value: StoredValue | null): string | null => value === null ? null : JSON.stringify(value)

/**
 * Records' property history on PostgreSQL (table `property_history`, migration 0054): a write's
 * entries in one multi-row INSERT (in pieces within PostgreSQL's parameters), in the caller's
 * transaction; a page walks `property_history_record` newest first.
 */
export const PropertyHistoryRepositoryPg: Layer.Layer<PropertyHistoryRepository, never, SqlClient.SqlClient> = Layer.effect(
  PropertyHistoryRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const insert = (entries: ReadonlyArray<HistoryEntry>) => {
      const [head, ...rest] = entries.map((entry) => ({
        account_id: entry.accountId,
        id: entry._id,
        kind: entry.kind,
        record_id: entry.recordId,
        property: entry.property,
        value: jsonOf(entry.value),
        previous_value: jsonOf(entry.previousValue),
        source: entry.source,
        user_id: entry.userId,
        changed_at: DateTime.toDateUtc(entry.changedAt)
      }))
      // The identity column numbers the rows in the VALUES list's order: the later, the newer.
      return sql`INSERT INTO property_history ${sql.insert([head!, ...rest])}`
    }
    return PropertyHistoryRepository.of({
      append: (entries) =>
        Effect.gen(function*() {
          for (let i = 0; i < entries.length; i += ROWS_PER_STATEMENT) {
            yield* insert(entries.slice(i, i + ROWS_PER_STATEMENT))
          }
        }).pipe(Effect.orDie),
      page: (input) =>
        Effect.gen(function*() {
          const scope = sql`account_id = ${input.accountId}::int8 AND kind = ${input.kind} AND record_id = ${input.recordId}${
            input.property === undefined ? sql`` : sql` AND property = ${input.property}`
          }`
          const rows = yield* sql`
            SELECT id, account_id, kind, record_id, property, value, previous_value, source, user_id, changed_at
            FROM property_history WHERE ${scope}
            ORDER BY changed_at DESC, seq DESC
            LIMIT ${input.perPage} OFFSET ${(input.page - 1) * input.perPage}
          `
          const [count] = yield* sql<{ readonly n: number }>`SELECT count(*)::int4 AS n FROM property_history WHERE ${scope}`
          const decoded = yield* decodeAll(rows)
          return {
            total: Number(count?.n ?? 0),
            rows: decoded.map((row): HistoryEntry => ({
              _id: row.id,
              accountId: row.account_id,
              kind: row.kind,
              recordId: row.record_id,
              property: row.property,
              value: row.value,
              previousValue: row.previous_value,
              source: row.source,
              userId: row.user_id,
              changedAt: row.changed_at
            }))
          }
        }).pipe(Effect.orDie),
      purge: (accountId, kind, recordId) =>
        Effect.map(
          sql`DELETE FROM property_history WHERE account_id = ${accountId}::int8 AND kind = ${kind} AND record_id = ${recordId} RETURNING 1`,
          (rows) => rows.length
        ).pipe(Effect.orDie)
    })
  })
)
