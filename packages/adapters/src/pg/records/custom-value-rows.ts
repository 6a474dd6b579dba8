/**
 * The side rows of custom values (migration 0004): a record's custom values live in its `custom`
 * jsonb, keyed by property id, and again as typed rows (`record_values`, and
 * `record_value_elements` for the elements of a set) that filters and ordering use. Written with
 * every record write (`writeSideRows`), dropped with a deleted property, rebuilt after a type
 * change (`PropertyValueStorePg`).
 *
 * @module
 */
import type { ObjectKind, RecordRef } from "@wasl/core/Records"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import type { EncodedWrite, ValueRow } from "./record-codec.ts"
import { type CustomProperty, KIND_STORAGE } from "./storage.ts"

/** One custom property of an account's kind. */
export interface CustomPropertyScope {
  /** The account. */
  readonly accountId: number
  /** The kind the property belongs to. */
  readonly kind: ObjectKind
  /** The property. */
  readonly property: CustomProperty
}

/** A side row of a custom value, with the record it belongs to. */
export type RecordValueRow = ValueRow & { readonly record_id: string }

/**
 * Inserts the side rows of custom values of records of one account and kind (`record_values`,
 * and `record_value_elements` for the elements of sets), in one statement each whatever the
 * number of records; part of the caller's transaction.
 */
export const insertValueRows = (
  sql: SqlClient.SqlClient,
  accountId: number,
  kind: ObjectKind,
  valueRows: ReadonlyArray<RecordValueRow>
): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    const rows = JSON.stringify(valueRows)
    // Texts folded; a multi_select's text is its canonical key (elements folded, distinct,
    // sorted, joined by U+0001); `txt` the first 255 characters, `txt_long` the whole when longer.
    yield* sql`
      INSERT INTO record_values (account_id, kind, record_id, property_id, num, txt, txt_long, ts, bool)
      SELECT ${accountId}::int8, ${kind}::text, x.record_id, x.property_id, x.num,
        left(f.folded, 255), CASE WHEN char_length(f.folded) > 255 THEN f.folded END, x.ts, x.bool
      FROM jsonb_to_recordset(${rows}::jsonb)
        AS x(record_id text, property_id text, num float8, txt text, ts timestamptz, bool boolean, elems text[])
      CROSS JOIN LATERAL (
        SELECT CASE WHEN x.elems IS NULL THEN lower(x.txt) ELSE (
          SELECT string_agg(d.e, chr(1) ORDER BY d.e COLLATE "C")
          FROM (SELECT DISTINCT lower(t.e) AS e FROM unnest(x.elems) AS t(e)) d
        ) END AS folded
      ) f
    `
    if (valueRows.some((r) => r.elems !== undefined)) {
      yield* sql`
        INSERT INTO record_value_elements (account_id, kind, record_id, property_id, elem)
        SELECT DISTINCT ${accountId}::int8, ${kind}::text, x.record_id, x.property_id, lower(t.e)
        FROM jsonb_to_recordset(${rows}::jsonb) AS x(record_id text, property_id text, elems text[])
        CROSS JOIN LATERAL unnest(x.elems) AS t(e)
      `
    }
  })

/**
 * Replaces the side rows of the custom values a write touched (`record_values`, and
 * `record_value_elements` for sets) with those of its values; part of the caller's transaction.
 */
export const writeSideRows = (sql: SqlClient.SqlClient, key: RecordRef, write: EncodedWrite): Effect.Effect<void, SqlError> =>
  Effect.gen(function*() {
    if (write.customTouched.length > 0) {
      yield* sql`DELETE FROM record_values WHERE account_id = ${key.accountId}::int8 AND record_id = ${key.id}
        AND property_id = ANY(${write.customTouched}::text[])`
      yield* sql`DELETE FROM record_value_elements WHERE account_id = ${key.accountId}::int8 AND record_id = ${key.id}
        AND property_id = ANY(${write.customTouched}::text[])`
    }
    if (write.valueRows.length === 0) return
    yield* insertValueRows(sql, key.accountId, key.kind, write.valueRows.map((row) => ({ ...row, record_id: key.id })))
  })

const clearSideRows = (sql: SqlClient.SqlClient, input: CustomPropertyScope) => {
  const scope = sql`account_id = ${input.accountId}::int8 AND property_id = ${input.property.id}`
  return Effect.all([
    sql`DELETE FROM record_values WHERE ${scope}`,
    sql`DELETE FROM record_value_elements WHERE ${scope}`
  ], { discard: true })
}

/**
 * A custom property is deleted: its values leave the records (`custom`) and the side tables.
 * Returns the number of records that had one. SQL failures are defects.
 */
export const dropPropertyValues = (sql: SqlClient.SqlClient, input: CustomPropertyScope): Effect.Effect<number> =>
  Effect.gen(function*() {
    const table = sql(KIND_STORAGE[input.kind].table)
    const p = input.property.id
    // The side rows name the records that have a value (an index range), not a scan of `custom`.
    const changed = yield* sql`
      UPDATE ${table} r SET custom = r.custom - ${p}::text
      WHERE r.account_id = ${input.accountId}::int8 AND r.custom ? ${p}::text
        AND r.id IN (SELECT v.record_id FROM record_values v WHERE v.account_id = ${input.accountId}::int8
                     AND v.property_id = ${p})
      RETURNING r.id
    `
    yield* clearSideRows(sql, input)
    return changed.length
  }).pipe(sql.withTransaction, Effect.orDie)

/**
 * Rebuilds a custom property's side rows from the records' `custom` values, read under the
 * property's type as given (after a type change, once the values are in the new type's stored
 * form). A value that is not of that form is left out of the side rows. Returns the number of
 * values indexed. SQL failures are defects.
 */
export const rebuildPropertyValues = (sql: SqlClient.SqlClient, input: CustomPropertyScope): Effect.Effect<number> =>
  Effect.gen(function*() {
    const table = sql(KIND_STORAGE[input.kind].table)
    const p = input.property.id
    const a = input.accountId
    yield* clearSideRows(sql, input)
    const from = sql`FROM ${table} r WHERE r.account_id = ${a}::int8 AND r.custom ? ${p}::text`
    const value = sql`r.custom -> ${p}::text`
    const text = sql`r.custom ->> ${p}::text`
    /** Inserts the side rows of the values that pass `where`; how many. */
    const insert = (columns: Fragment, values: Fragment, where: Fragment) =>
      sql`INSERT INTO record_values (account_id, kind, record_id, property_id, ${columns})
        SELECT r.account_id, ${input.kind}::text, r.id, ${p}::text, ${values} ${from} AND ${where}
        RETURNING 1`.pipe(Effect.map((rows) => rows.length))
    switch (input.property.type) {
      case "number":
        return yield* insert(sql`num`, sql`(${text})::float8`, sql`jsonb_typeof(${value}) = 'number'`)
      case "boolean":
        return yield* insert(sql`bool`, sql`(${value})::boolean`, sql`jsonb_typeof(${value}) = 'boolean'`)
      case "datetime":
        return yield* insert(sql`ts`, sql`(${text})::timestamptz`, sql`${text} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T'`)
      case "date":
        return yield* insert(
          sql`ts`,
          sql`((${text})::date)::timestamp AT TIME ZONE 'UTC'`,
          sql`${text} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`
        )
      case "multi_select": {
        yield* sql`
          INSERT INTO record_value_elements (account_id, kind, record_id, property_id, elem)
          SELECT DISTINCT r.account_id, ${input.kind}::text, r.id, ${p}::text, lower(t.e)
          FROM ${table} r CROSS JOIN LATERAL jsonb_array_elements_text(
            CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END
          ) AS t(e)
          WHERE r.account_id = ${a}::int8 AND r.custom ? ${p}::text AND t.e <> ''
        `
        // The canonical keys, from the elements just written.
        return yield* sql`
          INSERT INTO record_values (account_id, kind, record_id, property_id, txt, txt_long)
          SELECT k.account_id, ${input.kind}::text, k.record_id, ${p}::text, left(k.folded, 255),
                 CASE WHEN char_length(k.folded) > 255 THEN k.folded END
          FROM (
            SELECT account_id, record_id, string_agg(elem, chr(1) ORDER BY elem) AS folded
            FROM record_value_elements WHERE account_id = ${a}::int8 AND property_id = ${p}
            GROUP BY account_id, record_id
          ) k
          RETURNING 1
        `.pipe(Effect.map((rows) => rows.length))
      }
      default: {
        const folded = sql`lower(${text})`
        return yield* insert(
          sql`txt, txt_long`,
          sql`left(${folded}, 255), CASE WHEN char_length(${text}) > 255 THEN ${folded} END`,
          sql`jsonb_typeof(${value}) = 'string' AND ${text} <> ''`
        )
      }
    }
  }).pipe(sql.withTransaction, Effect.orDie)
