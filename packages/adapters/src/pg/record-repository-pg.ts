/**
 * The core's `RecordRepository` on PostgreSQL (migration 0004): insert, update, delete, get, list,
 * link and unlink for the six kinds, taking and answering the port's types.
 *
 * Each record kind has its table; custom values sit in its `custom` jsonb and in typed side rows
 * (records/custom-value-rows.ts) that filters and ordering use; values go in and come out in the
 * core's stored form (records/record-codec.ts). A list is one statement (records/list-statement.ts);
 * a scan (every record of a list, for exports) reads the same through a cursor (records/scan-sql.ts).
 * A deal's linked contacts, a contact's deal ids and a ticket's link counts are read in the same
 * statement as the record.
 *
 * Every write is one transaction (a savepoint inside an ambient one), with the custom values'
 * side rows and, through the triggers of migration 0004, the per-account counter and the ticket
 * link counters. Every statement filters on the account: a record of another account is never
 * read, changed or linked (it is "not found"). created_at and updated_at come from Effect's
 * Clock. SQL failures are defects, as in the other repositories.
 *
 * @module
 */
import {
  RecordRepository,
  type RecordGetInput,
  type RecordInsertInput,
  type RecordLinkInput,
  type RecordListInput,
  type RecordPage,
  type RecordRef,
  type RecordScanInput,
  type RecordUpdateInput,
  type RecordWithDerived
} from "@wasl/core"
import type { ObjectKind, PropertyDefinition } from "@wasl/core"
import { DateTime, Effect, Layer, Option, Stream } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { writeSideRows } from "./records/custom-value-rows.ts"
import { listStatement, selectColumns, selectLinkedContacts, selectLinkSets } from "./records/list-statement.ts"
import { decodeRecord, encodeWrite } from "./records/record-codec.ts"
import { compileScan } from "./records/scan-sql.ts"
import { customPropertiesOf, KIND_STORAGE, LINKS, type RecordMapping, recordMapping } from "./records/storage.ts"

/** Where the kind's properties live, with the account's custom ones among `custom`. */
const mappingOf = (input: { readonly kind: ObjectKind; readonly custom: ReadonlyArray<PropertyDefinition> }) =>
  recordMapping(input.kind, customPropertiesOf(input.kind, input.custom))

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const getWith = (mapping: RecordMapping, key: RecordRef) =>
    sql<Record<string, unknown>>`
      SELECT ${selectColumns(sql, mapping)}${selectLinkSets(sql, mapping, "r")}${selectLinkedContacts(sql, mapping, "r")}
      FROM ${sql(mapping.storage.table)} r WHERE r.account_id = ${key.accountId}::int8 AND r.id = ${key.id}
    `.pipe(Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(decodeRecord(mapping, rows[0]!))))

  const insert = (input: RecordInsertInput) =>
    Effect.gen(function*() {
      const mapping = mappingOf(input)
      const write = encodeWrite(mapping, input.values)
      const at = DateTime.toDateUtc(yield* DateTime.now)
      const row: Record<string, unknown> = {
        account_id: input.accountId,
        id: input.id,
        ...write.columns,
        custom: JSON.stringify(write.customSet),
        created_at: at,
        updated_at: at
      }
      yield* sql`INSERT INTO ${sql(mapping.storage.table)} ${sql.insert(row)}`
      yield* writeSideRows(sql, input, write)
      return Option.getOrThrow(yield* getWith(mapping, input))
    }).pipe(sql.withTransaction, Effect.orDie)

  const update = (input: RecordUpdateInput) =>
    Effect.gen(function*() {
      const mapping = mappingOf(input)
      const write = encodeWrite(mapping, input.patch)
      const at = DateTime.toDateUtc(yield* DateTime.now)
      const set: Array<Fragment> = Object.entries(write.columns).map(([column, value]) =>
        sql`${sql(column)} = ${value}`
      )
      set.push(sql`custom = (custom - ${write.customTouched}::text[]) || ${JSON.stringify(write.customSet)}::jsonb`)
      set.push(sql`updated_at = ${at}`)
      const updated = yield* sql`
        UPDATE ${sql(mapping.storage.table)} SET ${sql.csv(set)}
        WHERE account_id = ${input.accountId}::int8 AND id = ${input.id} RETURNING id
      `
      if (updated.length === 0) return Option.none<RecordWithDerived>()
      yield* writeSideRows(sql, input, write)
      return yield* getWith(mapping, input)
    }).pipe(sql.withTransaction, Effect.orDie)

  const del = (key: RecordRef) =>
    Effect.gen(function*() {
      const mapping = recordMapping(key.kind, [])
      const deleted = yield* sql`
        DELETE FROM ${sql(mapping.storage.table)} WHERE account_id = ${key.accountId}::int8 AND id = ${key.id} RETURNING id
      `
      if (deleted.length === 0) return false
      const scope = sql`account_id = ${key.accountId}::int8 AND kind = ${key.kind} AND record_id = ${key.id}`
      yield* sql`DELETE FROM record_values WHERE ${scope}`
      yield* sql`DELETE FROM record_value_elements WHERE ${scope}`
      yield* sql`DELETE FROM notes WHERE account_id = ${key.accountId}::int8 AND object_type = ${key.kind}
        AND record_id = ${key.id}`
      return true
    }).pipe(sql.withTransaction, Effect.orDie)

  const get = (input: RecordGetInput) => Effect.suspend(() => getWith(mappingOf(input), input)).pipe(Effect.orDie)

  const list = (input: RecordListInput) =>
    Effect.suspend(() => {
      const mapping = mappingOf(input)
      return Effect.map(listStatement(sql, mapping, input).unprepared, (rows): RecordPage => ({
        total: rows.length === 0 ? 0 : Number(rows[0]!.total),
        rows: rows.filter((row) => row.id !== null && row.id !== undefined).map((row) => decodeRecord(mapping, row))
      }))
    }).pipe(Effect.orDie)

  // One cursor per scan, named apart so that two scans in one transaction do not collide.
  let scans = 0
  const scan = (input: RecordScanInput, batchSize: number) =>
    Stream.unwrap(Effect.sync(() => {
      const mapping = mappingOf(input)
      const cursor = sql(`wasl_record_scan_${++scans}`)
      const size = Math.max(1, Math.floor(batchSize))
      const declare = sql`DECLARE ${cursor} NO SCROLL CURSOR FOR ${compileScan(sql, mapping, input)}`
      const fetch = Effect.map(sql`FETCH ${sql.literal(String(size))} FROM ${cursor}`.unprepared, (rows) =>
        rows.map((row) => decodeRecord(mapping, row)))
      // A short fetch is the last one: the cursor is closed then rather than at the transaction's end.
      type Step = readonly [ReadonlyArray<RecordWithDerived>, boolean] | undefined
      const next = (open: boolean): Effect.Effect<Step, SqlError> =>
        !open ? Effect.succeed(undefined) : Effect.flatMap(fetch, (rows): Effect.Effect<Step, SqlError> =>
          rows.length === size
            ? Effect.succeed([rows, true])
            : Effect.as(sql`CLOSE ${cursor}`.unprepared, rows.length === 0 ? undefined : [rows, false]))
      return Stream.unfold<boolean, ReadonlyArray<RecordWithDerived>, SqlError, never>(true, next).pipe(
        Stream.onStart(Effect.orDie(declare.unprepared)),
        Stream.orDie
      )
    }))

  const linkScope = (input: RecordLinkInput) => {
    const spec = LINKS[input.link]
    return {
      table: sql(spec.table),
      fromTable: sql(recordMapping(spec.from[0], []).storage.table),
      toTable: sql(recordMapping(spec.to[0], []).storage.table),
      from: sql(spec.from[1]),
      to: sql(spec.to[1])
    }
  }

  const link = (input: RecordLinkInput) =>
    Effect.gen(function*() {
      const s = linkScope(input)
      const at = DateTime.toDateUtc(yield* DateTime.now)
      const [row] = yield* sql<{ readonly inserted: boolean }>`
        WITH ok AS (
          -- Both sides held (FOR KEY SHARE): a DELETE of either that is under way is waited for, and a
          -- side it removed is missing here, not a foreign-key violation at the insert.
          SELECT EXISTS (SELECT 1 FROM ${s.fromTable} WHERE account_id = ${input.accountId}::int8 AND id = ${input.from} FOR KEY SHARE)
             AND EXISTS (SELECT 1 FROM ${s.toTable} WHERE account_id = ${input.accountId}::int8 AND id = ${input.to} FOR KEY SHARE) AS ok
        ), inserted AS (
          INSERT INTO ${s.table} (account_id, ${s.from}, ${s.to}, created_at)
          SELECT ${input.accountId}::int8, ${input.from}::text, ${input.to}::text, ${at}::timestamptz FROM ok WHERE ok.ok
          ON CONFLICT DO NOTHING
          RETURNING 1
        )
        SELECT EXISTS (SELECT 1 FROM inserted) AS inserted
      `
      return row!.inserted
    }).pipe(sql.withTransaction, Effect.orDie)

  const unlink = (input: RecordLinkInput) =>
    Effect.gen(function*() {
      const s = linkScope(input)
      const deleted = yield* sql`
        DELETE FROM ${s.table} WHERE account_id = ${input.accountId}::int8 AND ${s.from} = ${input.from}
          AND ${s.to} = ${input.to} RETURNING 1
      `
      return deleted.length > 0
    }).pipe(sql.withTransaction, Effect.orDie)


  return RecordRepository.of({
    insert,
    update,
    delete: del,
    get,
    list,
    scan,
    existing: (accountId, kind, ids) =>
      ids.length === 0 ? Effect.succeed([]) : Effect.map(
        sql<{ readonly id: string }>`
          SELECT id FROM ${sql(KIND_STORAGE[kind].table)} WHERE account_id = ${accountId}::int8 AND id IN ${sql.in(ids)}
          FOR KEY SHARE
        `,
        (rows) => {
          const found = new Set(rows.map((r) => r.id))
          return [...new Set(ids)].filter((id) => found.has(id))
        }
      ).pipe(Effect.orDie),
    link,
    unlink
  })
})

/** `RecordRepository` on PostgreSQL (`SqlClient`, migrated). */
export const RecordRepositoryPg: Layer.Layer<RecordRepository, never, SqlClient.SqlClient> = Layer.effect(
  RecordRepository,
  make
)
