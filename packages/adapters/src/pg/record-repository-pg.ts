/**
 * The core's `RecordRepository` on PostgreSQL (migration 0004): insert, update, delete, get, list,
 * link and unlink for the six kinds, taking and answering the port's types.
 *
 * Each record kind has its table; custom values sit in its `custom` jsonb and in typed side rows
 * (records/custom-value-rows.ts) that filters and ordering use; values go in and come out in the
 * core's stored form (records/record-codec.ts). A list is one statement (records/list-statement.ts);
 * a scan (every record of a list, for exports) reads the same a batch at a time, by keyset (records/scan-sql.ts).
 * A deal's linked contacts, a contact's deal ids and a ticket's link counts are read in the same
 * statement as the record.
 *
 * Every write is atomic, with the custom values' side rows and, through the triggers of migration
 * 0004, the per-account counter and the ticket link counters: one statement where it can be (an
 * insert or update answers the record it wrote in the same statement; a link is one statement),
 * else the caller's transaction or one of its own — never a savepoint, which would cost two round
 * trips and protect nothing, a failure here being a defect that rolls the caller's back. Every
 * statement filters on the account: a record of another account is never read, changed or linked
 * (it is "not found"). created_at and updated_at come from Effect's Clock. SQL failures are
 * defects, as in the other repositories.
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
  type RecordScanBatch,
  type RecordScanInput,
  type RecordUpdateInput,
  type RecordWithDerived
} from "@wasl/core/Records"
import type { ObjectKind, PropertyDefinition } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { insertValueRows, type RecordValueRow, writeSideRows } from "./records/custom-value-rows.ts"
import {
  listStatement,
  selectColumns,
  selectContactChannels,
  selectLinkedContacts,
  selectLinkSets
} from "./records/list-statement.ts"
import { type ReadOptions, ReadReplicas } from "./read-replicas.ts"
import { decodeRecord, type EncodedWrite, encodeWrite } from "./records/record-codec.ts"
import { deleteRecordRows } from "./records/record-removal.ts"
import { compileScanBatch, positionOf } from "./records/scan-sql.ts"
import { customPropertiesOf, KIND_STORAGE, LINKS, type RecordMapping, recordMapping } from "./records/storage.ts"

/** PostgreSQL's limit on a statement's parameters. */
const MAX_PARAMETERS = 65_535

/**
 * The mappings made from each list of definitions, by kind. The definitions a request brings come
 * from the property cache, the same list for every request while it is kept, so its mapping is made
 * once rather than per request; a list no longer referenced takes its mappings with it. The lists
 * are read-only (the port's type says so): one changed in place would keep its first mapping.
 */
const mappings = new WeakMap<ReadonlyArray<PropertyDefinition>, Map<ObjectKind, RecordMapping>>()

/** Where the kind's properties live, with the account's custom ones among `custom`. */
const mappingOf = (input: { readonly kind: ObjectKind; readonly custom: ReadonlyArray<PropertyDefinition> }) => {
  let byKind = mappings.get(input.custom)
  if (byKind === undefined) mappings.set(input.custom, byKind = new Map())
  let mapping = byKind.get(input.kind)
  if (mapping === undefined) byKind.set(input.kind, mapping = recordMapping(input.kind, customPropertiesOf(input.kind, input.custom)))
  return mapping
}

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const replicas = yield* Effect.serviceOption(ReadReplicas)
  /** A list's or scan's statement, on a caught-up read replica when there are some (read-replicas.ts). */
  const reading = <A>(read: (client: SqlClient.SqlClient) => Effect.Effect<A, SqlError>, options?: ReadOptions) =>
    Option.isSome(replicas) ? replicas.value.read(read, options) : read(sql)

  /**
   * A write of several statements, made atomic: inside the caller's transaction as it is (the
   * repository's failures are defects, which roll the caller's transaction back whole, so a
   * savepoint would only cost two round trips), else in a transaction of its own.
   */
  const atomically = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(
      Effect.serviceOption(sql.transactionService),
      (ambient) => Option.isSome(ambient) ? effect : sql.withTransaction(effect)
    )

  /** What the port answers of a record (its derived values too), from rows named `r`. */
  const recordColumns = (mapping: RecordMapping) =>
    sql`${selectColumns(sql, mapping)}${selectLinkSets(sql, mapping, "r")}${selectLinkedContacts(sql, mapping, "r")}${selectContactChannels(sql, mapping, "r")}`
  const firstRecord = (mapping: RecordMapping) => (rows: ReadonlyArray<Record<string, unknown>>) =>
    rows.length === 0 ? Option.none<RecordWithDerived>() : Option.some(decodeRecord(mapping, rows[0]!))

  const getWith = (mapping: RecordMapping, key: RecordRef) =>
    sql<Record<string, unknown>>`
      SELECT ${recordColumns(mapping)}
      FROM ${sql(mapping.storage.table)} r WHERE r.account_id = ${key.accountId}::int8 AND r.id = ${key.id}
    `.pipe(Effect.map(firstRecord(mapping)))

  /**
   * Runs a write of records (an INSERT or UPDATE … RETURNING *) and reads what the port answers of
   * each from its returned rows in the same statement. The derived values come from the link tables
   * as they were before the statement, which a write of the records' own rows does not change.
   */
  const writeReturning = (mapping: RecordMapping, write: Fragment) =>
    sql<Record<string, unknown>>`WITH r AS (${write} RETURNING *) SELECT ${recordColumns(mapping)} FROM r`.pipe(
      Effect.map((rows) => rows.map((row) => decodeRecord(mapping, row)))
    )

  /** Writes the record's row, then the side rows of its custom values (when it has any to change). */
  const writeRecord = (mapping: RecordMapping, key: RecordRef, write: EncodedWrite, statement: Fragment) => {
    const row = Effect.map(writeReturning(mapping, statement), (rows) => Option.fromNullishOr(rows[0]))
    if (write.customTouched.length === 0 && write.valueRows.length === 0) return row
    return atomically(Effect.tap(row, (written) => Option.isSome(written) ? writeSideRows(sql, key, write) : Effect.void))
  }

  /**
   * New records of one account and kind: a multi-row INSERT per set of columns the rows set (a
   * column a row leaves out takes its default, which a NULL in a shared VALUES list would not), in
   * pieces within PostgreSQL's 65,535 parameters, then every custom value's side rows in one
   * statement. One record without custom values is one statement.
   */
  const insertAll = (inputs: ReadonlyArray<RecordInsertInput>) =>
    Effect.gen(function*() {
      const first = inputs[0]
      if (first === undefined) return []
      const mapping = mappingOf(first)
      const at = DateTime.toDateUtc(yield* DateTime.now)
      const groups = new Map<string, Array<Record<string, unknown>>>()
      const sideRows: Array<RecordValueRow> = []
      for (const input of inputs) {
        const write = encodeWrite(mapping, input.values)
        const columns = Object.keys(write.columns).sort()
        const row: Record<string, unknown> = { account_id: first.accountId, id: input.id }
        for (const column of columns) row[column] = write.columns[column]
        row.custom = JSON.stringify(write.customSet)
        row.created_at = at
        row.updated_at = at
        const key = columns.join(",")
        const group = groups.get(key)
        if (group === undefined) groups.set(key, [row])
        else group.push(row)
        for (const valueRow of write.valueRows) sideRows.push({ ...valueRow, record_id: input.id })
      }
      const statements: Array<Effect.Effect<ReadonlyArray<RecordWithDerived>, SqlError>> = []
      for (const rows of groups.values()) {
        const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Object.keys(rows[0]!).length))
        for (let i = 0; i < rows.length; i += perStatement) {
          const [head, ...rest] = rows.slice(i, i + perStatement)
          statements.push(writeReturning(mapping, sql`INSERT INTO ${sql(mapping.storage.table)} ${sql.insert([head!, ...rest])}`))
        }
      }
      if (sideRows.length > 0) statements.push(Effect.as(insertValueRows(sql, first.accountId, first.kind, sideRows), []))
      const written = statements.length === 1 ? yield* statements[0]! : (yield* atomically(Effect.all(statements))).flat()
      const byId = new Map(written.map((record) => [record.record._id, record]))
      return inputs.map((input) => byId.get(input.id)!)
    }).pipe(Effect.orDie)

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
      return yield* writeRecord(
        mapping,
        input,
        write,
        sql`UPDATE ${sql(mapping.storage.table)} SET ${sql.csv(set)} WHERE account_id = ${input.accountId}::int8 AND id = ${input.id}`
      )
    }).pipe(Effect.orDie)

  const del = (key: RecordRef) => deleteRecordRows(sql, key).pipe(atomically, Effect.orDie)

  // FOR UPDATE: a concurrent update of the record waits for this transaction, so the values read
  // are the ones the caller's update replaces.
  const valuesForUpdate = (input: RecordGetInput) =>
    Effect.suspend(() => {
      const mapping = mappingOf(input)
      return sql<Record<string, unknown>>`
        SELECT ${selectColumns(sql, mapping)} FROM ${sql(mapping.storage.table)} r
        WHERE r.account_id = ${input.accountId}::int8 AND r.id = ${input.id} FOR UPDATE
      `.pipe(Effect.map((rows) => Option.map(firstRecord(mapping)(rows), (found) => found.record.values)))
    }).pipe(Effect.orDie)

  const get = (input: RecordGetInput) => Effect.suspend(() => getWith(mappingOf(input), input)).pipe(Effect.orDie)

  const list = (input: RecordListInput) =>
    Effect.suspend(() => {
      const mapping = mappingOf(input)
      return Effect.map(reading((client) => listStatement(client, mapping, input).unprepared), (rows): RecordPage => ({
        total: rows.length === 0 ? 0 : Number(rows[0]!.total),
        rows: rows.filter((row) => row.id !== null && row.id !== undefined).map((row) => decodeRecord(mapping, row))
      }))
    }).pipe(Effect.orDie)

  const scanBatch = (input: RecordScanInput, after: string | null, limit: number) =>
    Effect.suspend(() => {
      const mapping = mappingOf(input)
      return Effect.map(reading((client) => compileScanBatch(client, mapping, input, after, limit).unprepared, {
        // An export's batch: its transaction writes only the export's own file and place.
        apartFromTransaction: true
      }), (rows): RecordScanBatch => ({
        rows: rows.map((row) => decodeRecord(mapping, row)),
        after: rows.length === 0 ? after : positionOf(rows.at(-1)!)
      }))
    }).pipe(Effect.orDie)

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
    }).pipe(Effect.orDie)

  const unlink = (input: RecordLinkInput) =>
    Effect.gen(function*() {
      const s = linkScope(input)
      const deleted = yield* sql`
        DELETE FROM ${s.table} WHERE account_id = ${input.accountId}::int8 AND ${s.from} = ${input.from}
          AND ${s.to} = ${input.to} RETURNING 1
      `
      return deleted.length > 0
    }).pipe(Effect.orDie)


  return RecordRepository.of({
    insert: (input) => Effect.map(insertAll([input]), (written) => written[0]!),
    insertAll,
    update,
    delete: del,
    valuesForUpdate,
    get,
    list,
    scanBatch,
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
