/**
 * Records on PostgreSQL (migration 0004): insert, update, delete, get, list, link and unlink for
 * the six kinds, and the upkeep of a custom property's values when it is deleted or changes type.
 * A repository-level API under `RecordRepositoryPg` (and the records benchmark), not the core's
 * port: values come in already validated in the core's stored form and go out in it.
 *
 * Values (`RecordValue`, the JSON form of @wasl/core value-validation.ts): strings (text, email,
 * phone, url, single_select; `YYYY-MM-DD` for a date; a wire timestamp for a datetime), finite
 * numbers, booleans, string arrays (multi_select). A date or datetime may also be given as a
 * `DateTime`. `null`, `""` and `[]` mean no value. Instants are stored to the millisecond.
 *
 * Every write is one transaction (a savepoint inside an ambient one), with the custom values'
 * side rows (`record_values`, `record_value_elements`) and, through the triggers of migration
 * 0004, the per-account counter and the ticket link counters. Every statement filters on the
 * account: a record of another account is never read, changed or linked (it is "not found").
 *
 * SQL failures are defects, as in the other repositories.
 *
 * @module
 */
import { formatWireTimestamp, type ObjectKind, parseDateInput, storageOf } from "@wasl/core"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment, Statement } from "effect/sql/Statement"
import { compileList, type OrderDirection, selectColumns, selectLinkedContacts, selectLinkSets } from "./filter-sql.ts"
import type { ComplexFilters } from "@wasl/core"
import {
  type BuiltinColumn,
  type CustomProperty,
  KIND_STORAGE,
  LINKS,
  type LinkName,
  type RecordMapping,
  recordMapping,
  targetOf
} from "./storage.ts"

/** A stored value (the core's JSON form). */
export type RecordValue = string | number | boolean | ReadonlyArray<string>

/** A value as given to a write: a stored value, a DateTime for dates, or no value. */
export type RecordInputValue = RecordValue | DateTime.DateTime | null | undefined

/** A record as stored. */
export interface RecordRow {
  /** The record id (24 hex). */
  readonly _id: string
  /** The account of the record. */
  readonly account_id: number
  /** The record's kind. */
  readonly kind: ObjectKind
  /** The built-in and custom values the record has (by internal_name), no derived ones. */
  readonly values: Readonly<Record<string, RecordValue>>
  /**
   * Derived values: contact `fullname` (when any name part is set) and `deal_ids`, ticket
   * `contacts_count` and `deals_count`.
   */
  readonly derived: Readonly<Record<string, RecordValue>>
  /** A deal's linked contacts as summaries, oldest link first (deals only). */
  readonly linkedContacts?: ReadonlyArray<LinkedContact>
  /** When the record was made. */
  readonly created_at: DateTime.Utc
  /** When the record last changed. */
  readonly updated_at: DateTime.Utc
}

/** A contact linked to a deal, as a deal's REST shape lists it. */
export interface LinkedContact {
  /** The contact's id. */
  readonly _id: string
  /** The contact's account. */
  readonly account_id: number
  /** The contact's first name, if any. */
  readonly firstname: string | null
  /** The contact's last name, if any. */
  readonly lastname: string | null
}

/** Which record: account, kind and id. */
export interface RecordKey {
  /** The account of the record. */
  readonly accountId: number
  /** The record's kind. */
  readonly kind: ObjectKind
  /** The record id (24 hex). */
  readonly id: string
}

/** A new record: its key, its values and the custom properties they name. */
export interface RecordInsert extends RecordKey {
  /** The kind's custom properties (those the values name, at least). */
  readonly custom: ReadonlyArray<CustomProperty>
  /** The values by internal_name (no value: absent, null, `""` or `[]`). */
  readonly values: Readonly<Record<string, RecordInputValue>>
  /** created_at = updated_at; default: now (Effect's Clock). */
  readonly at?: DateTime.DateTime | undefined
}

/** A patch of a record's values. */
export interface RecordUpdate extends RecordKey {
  /** The kind's custom properties (those the values name, at least). */
  readonly custom: ReadonlyArray<CustomProperty>
  /** A patch: only the names given change; null (or "", []) clears. */
  readonly values: Readonly<Record<string, RecordInputValue>>
  /** updated_at; default: now. */
  readonly at?: DateTime.DateTime | undefined
}

/** A record to read, with the custom properties whose values to show. */
export interface RecordGet extends RecordKey {
  /** The kind's custom properties to show the values of. */
  readonly custom: ReadonlyArray<CustomProperty>
}

/** A page of an account's records of a kind: filters, search, order and page. */
export interface RecordListQuery {
  /** The account whose records are listed. */
  readonly accountId: number
  /** The kind listed. */
  readonly kind: ObjectKind
  /** The kind's custom properties (to show, filter and order by). */
  readonly custom: ReadonlyArray<CustomProperty>
  /** The parsed `complex_filters`; default none. */
  readonly filters?: ComplexFilters | undefined
  /** A case-insensitive substring of the kind's name property; default none. */
  readonly search?: string | undefined
  /** Default `created_at`. */
  readonly order?: string | undefined
  /** Default `desc`. */
  readonly direction?: OrderDirection | undefined
  /** Default 1. */
  readonly page?: number | undefined
  /** Default 15. */
  readonly perPage?: number | undefined
}

/** A page of records and the exact total of the list. */
export interface RecordListResult {
  /** The page's records, in order. */
  readonly rows: ReadonlyArray<RecordRow>
  /** How many records the whole list has. */
  readonly total: number
}

/** A link between two of an account's records. */
export interface RecordLink {
  /** The account of both records. */
  readonly accountId: number
  /** `deal_contact` (deal → contact), `ticket_contact`, `ticket_deal`. */
  readonly link: LinkName
  /** The id of the first kind's record (the deal, the ticket). */
  readonly from: string
  /** The id of the second kind's record. */
  readonly to: string
  /** When the link was made; default: now (Effect's Clock). */
  readonly at?: DateTime.DateTime | undefined
}

// -----------------------------------------------------------------------------------------------
// Encoding values
// -----------------------------------------------------------------------------------------------

const defect = (message: string): never => {
  throw new Error(`records: ${message}`)
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

const isEmpty = (value: RecordInputValue): value is null | undefined | "" =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)

const instantOf = (name: string, value: RecordInputValue): DateTime.Utc => {
  if (DateTime.isDateTime(value)) return DateTime.toUtc(value)
  if (typeof value === "string" || typeof value === "number") {
    const parsed = parseDateInput(value)
    if (Option.isSome(parsed)) return parsed.value
  }
  return defect(`${name}: not a date`)
}

const dayOf = (name: string, value: RecordInputValue): string => {
  if (typeof value === "string" && DAY.test(value)) return value
  return DateTime.formatIso(instantOf(name, value)).slice(0, 10)
}

/** A scalar's stored (JSON) form and its SQL parameter, by the property's type. */
const encodeScalar = (
  name: string,
  type: BuiltinColumn["type"],
  value: RecordInputValue
): { readonly stored: RecordValue; readonly param: string | number | boolean | Date } => {
  switch (storageOf(type)) {
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? { stored: value + 0, param: value + 0 }
        : defect(`${name}: not a finite number`)
    case "boolean":
      return typeof value === "boolean" ? { stored: value, param: value } : defect(`${name}: not a boolean`)
    case "datetime": {
      const instant = instantOf(name, value)
      return { stored: formatWireTimestamp(instant), param: DateTime.toDateUtc(instant) }
    }
    case "date": {
      const day = dayOf(name, value)
      return { stored: day, param: day }
    }
    case "text":
      return typeof value === "string" ? { stored: value, param: value } : defect(`${name}: not a string`)
  }
}

/** One custom value's side row, as `jsonb_to_recordset` reads it. */
interface ValueRow {
  readonly property_id: string
  readonly num?: number
  readonly txt?: string
  readonly ts?: string
  readonly bool?: boolean
  readonly elems?: ReadonlyArray<string>
}

interface EncodedWrite {
  /** Built-in columns to set (column → parameter; null clears). */
  readonly columns: Record<string, unknown>
  /** Custom values to set, by property id (the jsonb). */
  readonly customSet: Record<string, RecordValue>
  /** Custom property ids touched (set or cleared). */
  readonly customTouched: Array<string>
  readonly valueRows: Array<ValueRow>
}

const encodeWrite = (mapping: RecordMapping, values: Readonly<Record<string, RecordInputValue>>): EncodedWrite => {
  const out: EncodedWrite = { columns: {}, customSet: {}, customTouched: [], valueRows: [] }
  for (const [name, value] of Object.entries(values)) {
    const target = targetOf(mapping, name)
    if (target._tag === "Link") return defect(`${name} is derived from links`)
    if (target._tag === "Column") {
      if (!target.column.writable) defect(`${name} is not written from values`)
      out.columns[target.column.column] = isEmpty(value) ? null : encodeScalar(name, target.column.type, value).param
      continue
    }
    const property = target.property
    out.customTouched.push(property.id)
    if (isEmpty(value)) continue
    if (property.type === "multi_select") {
      if (!Array.isArray(value) || !value.every((e): e is string => typeof e === "string" && e !== "")) {
        defect(`${name}: not a list of option names`)
      }
      const elements = [...new Set(value as ReadonlyArray<string>)]
      out.customSet[property.id] = elements
      out.valueRows.push({ property_id: property.id, elems: elements })
      continue
    }
    const { stored } = encodeScalar(name, property.type, value)
    out.customSet[property.id] = stored
    switch (storageOf(property.type)) {
      case "number":
        out.valueRows.push({ property_id: property.id, num: stored as number })
        break
      case "boolean":
        out.valueRows.push({ property_id: property.id, bool: stored as boolean })
        break
      case "datetime":
        out.valueRows.push({ property_id: property.id, ts: stored as string })
        break
      case "date":
        out.valueRows.push({ property_id: property.id, ts: `${stored as string}T00:00:00Z` })
        break
      case "text":
        out.valueRows.push({ property_id: property.id, txt: stored as string })
        break
    }
  }
  return out
}

// -----------------------------------------------------------------------------------------------
// Decoding rows
// -----------------------------------------------------------------------------------------------

const wireOf = (value: unknown): string =>
  value instanceof Date ? formatWireTimestamp(DateTime.fromDateUnsafe(value)) : String(value)

const decodeColumn = (column: BuiltinColumn, value: unknown): RecordValue | undefined => {
  if (value === null || value === undefined) return undefined
  switch (storageOf(column.type)) {
    case "number":
      return Number(value)
    case "boolean":
      return Boolean(value)
    case "datetime":
      return wireOf(value)
    case "date":
      return value instanceof Date ? DateTime.formatIso(DateTime.fromDateUnsafe(value)).slice(0, 10) : String(value)
    case "text":
      return String(value)
  }
}

const decodeRecord = (mapping: RecordMapping, row: Record<string, unknown>): RecordRow => {
  const values: Record<string, RecordValue> = {}
  const derived: Record<string, RecordValue> = {}
  let createdAt: DateTime.Utc | undefined
  let updatedAt: DateTime.Utc | undefined
  for (const column of mapping.storage.columns) {
    const raw = row[column.column]
    if (column.name === "created_at") createdAt = instantOf("created_at", wireOf(raw))
    else if (column.name === "updated_at") updatedAt = instantOf("updated_at", wireOf(raw))
    else {
      const value = decodeColumn(column, raw)
      if (value !== undefined) (column.derived ? derived : values)[column.name] = value
    }
  }
  const custom = (row.custom ?? {}) as Record<string, unknown>
  for (const property of mapping.custom) {
    const value = custom[property.id]
    if (value !== undefined && value !== null) values[property.internal_name] = value as RecordValue
  }
  for (const link of mapping.storage.links) {
    if (link.derived) derived[link.name] = (row[link.name] ?? []) as ReadonlyArray<string>
  }
  const linked = row.linked_contacts
  return {
    _id: String(row.id),
    account_id: Number(row.account_id),
    kind: mapping.storage.kind,
    values,
    derived,
    ...(Array.isArray(linked) ? { linkedContacts: linked as ReadonlyArray<LinkedContact> } : {}),
    created_at: createdAt!,
    updated_at: updatedAt!
  }
}

// -----------------------------------------------------------------------------------------------
// The service
// -----------------------------------------------------------------------------------------------

/** What `RecordStorePg` offers. SQL failures are defects. */
export interface RecordStore {
  /** Inserts a new record (the id is the caller's); returns it as stored. A taken id is a defect. */
  readonly insert: (input: RecordInsert) => Effect.Effect<RecordRow>
  /** Applies a patch; `None` when the account has no such record. */
  readonly update: (input: RecordUpdate) => Effect.Effect<Option.Option<RecordRow>>
  /** Deletes the record, its custom values, links and notes; false when there was none. */
  readonly delete: (key: RecordKey) => Effect.Effect<boolean>
  /** The record, or none when the account has no such record. */
  readonly get: (input: RecordGet) => Effect.Effect<Option.Option<RecordRow>>
  /** A page in order with the exact total. */
  readonly list: (input: RecordListQuery) => Effect.Effect<RecordListResult>
  /** Links two records of the account (idempotent); true only when the link is new (false when it
   * existed already or either record is not there). */
  readonly link: (input: RecordLink) => Effect.Effect<boolean>
  /** Removes a link; false when there was none. */
  readonly unlink: (input: RecordLink) => Effect.Effect<boolean>
  /**
   * A custom property is deleted: its values leave the records (`custom`) and the side tables.
   * Returns the number of records that had one.
   */
  readonly dropPropertyValues: (input: CustomPropertyScope) => Effect.Effect<number>
  /**
   * Rebuilds a custom property's side rows from the records' `custom` values, read under the
   * property's type as given (after a type change, once the values are in the new type's stored
   * form). A value that is not of that form is left out of the side rows. Returns the number of
   * values indexed.
   */
  readonly rebuildPropertyValues: (input: CustomPropertyScope) => Effect.Effect<number>
}

/** One custom property of an account's kind. */
export interface CustomPropertyScope {
  /** The account. */
  readonly accountId: number
  /** The kind the property belongs to. */
  readonly kind: ObjectKind
  /** The property. */
  readonly property: CustomProperty
}

/** The statement `list` runs for `input` (defaults filled in); the records benchmark sends it raw too. */
export const listStatement = (sql: SqlClient.SqlClient, input: RecordListQuery): Statement<Record<string, unknown>> =>
  compileList(sql, recordMapping(input.kind, input.custom), {
    accountId: input.accountId,
    filters: input.filters ?? [],
    search: input.search,
    order: input.order ?? "created_at",
    direction: input.direction ?? "desc",
    page: input.page ?? 1,
    perPage: input.perPage ?? 15
  })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const nowOr = (at: DateTime.DateTime | undefined) =>
    at === undefined ? DateTime.now : Effect.succeed(DateTime.toUtc(at))

  const writeValues = (key: RecordKey, write: EncodedWrite) =>
    Effect.gen(function*() {
      if (write.customTouched.length > 0) {
        yield* sql`DELETE FROM record_values WHERE account_id = ${key.accountId}::int8 AND record_id = ${key.id}
          AND property_id = ANY(${write.customTouched}::text[])`
        yield* sql`DELETE FROM record_value_elements WHERE account_id = ${key.accountId}::int8 AND record_id = ${key.id}
          AND property_id = ANY(${write.customTouched}::text[])`
      }
      if (write.valueRows.length === 0) return
      const rows = JSON.stringify(write.valueRows)
      // Texts folded; a multi_select's text is its canonical key (elements folded, distinct,
      // sorted, joined by U+0001); `txt` the first 255 characters, `txt_long` the whole when longer.
      yield* sql`
        INSERT INTO record_values (account_id, kind, record_id, property_id, num, txt, txt_long, ts, bool)
        SELECT ${key.accountId}::int8, ${key.kind}::text, ${key.id}::text, x.property_id, x.num,
          left(f.folded, 255), CASE WHEN char_length(f.folded) > 255 THEN f.folded END, x.ts, x.bool
        FROM jsonb_to_recordset(${rows}::jsonb)
          AS x(property_id text, num float8, txt text, ts timestamptz, bool boolean, elems text[])
        CROSS JOIN LATERAL (
          SELECT CASE WHEN x.elems IS NULL THEN lower(x.txt) ELSE (
            SELECT string_agg(d.e, chr(1) ORDER BY d.e COLLATE "C")
            FROM (SELECT DISTINCT lower(t.e) AS e FROM unnest(x.elems) AS t(e)) d
          ) END AS folded
        ) f
      `
      if (write.valueRows.some((r) => r.elems !== undefined)) {
        yield* sql`
          INSERT INTO record_value_elements (account_id, kind, record_id, property_id, elem)
          SELECT DISTINCT ${key.accountId}::int8, ${key.kind}::text, ${key.id}::text, x.property_id, lower(t.e)
          FROM jsonb_to_recordset(${rows}::jsonb) AS x(property_id text, elems text[])
          CROSS JOIN LATERAL unnest(x.elems) AS t(e)
        `
      }
    })

  const getWith = (mapping: RecordMapping, key: RecordKey) =>
    sql<Record<string, unknown>>`
      SELECT ${selectColumns(sql, mapping)}${selectLinkSets(sql, mapping, "r")}${selectLinkedContacts(sql, mapping, "r")}
      FROM ${sql(mapping.storage.table)} r WHERE r.account_id = ${key.accountId}::int8 AND r.id = ${key.id}
    `.pipe(Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(decodeRecord(mapping, rows[0]!))))

  const insert = (input: RecordInsert) =>
    Effect.gen(function*() {
      const mapping = recordMapping(input.kind, input.custom)
      const write = encodeWrite(mapping, input.values)
      const at = DateTime.toDateUtc(yield* nowOr(input.at))
      const row: Record<string, unknown> = {
        account_id: input.accountId,
        id: input.id,
        ...write.columns,
        custom: JSON.stringify(write.customSet),
        created_at: at,
        updated_at: at
      }
      yield* sql`INSERT INTO ${sql(mapping.storage.table)} ${sql.insert(row)}`
      yield* writeValues(input, write)
      return Option.getOrThrow(yield* getWith(mapping, input))
    }).pipe(sql.withTransaction, Effect.orDie)

  const update = (input: RecordUpdate) =>
    Effect.gen(function*() {
      const mapping = recordMapping(input.kind, input.custom)
      const write = encodeWrite(mapping, input.values)
      const at = DateTime.toDateUtc(yield* nowOr(input.at))
      const set: Array<Fragment> = Object.entries(write.columns).map(([column, value]) =>
        sql`${sql(column)} = ${value}`
      )
      set.push(sql`custom = (custom - ${write.customTouched}::text[]) || ${JSON.stringify(write.customSet)}::jsonb`)
      set.push(sql`updated_at = ${at}`)
      const updated = yield* sql`
        UPDATE ${sql(mapping.storage.table)} SET ${sql.csv(set)}
        WHERE account_id = ${input.accountId}::int8 AND id = ${input.id} RETURNING id
      `
      if (updated.length === 0) return Option.none<RecordRow>()
      yield* writeValues(input, write)
      return yield* getWith(mapping, input)
    }).pipe(sql.withTransaction, Effect.orDie)

  const del = (key: RecordKey) =>
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

  const get = (input: RecordGet) =>
    Effect.suspend(() => getWith(recordMapping(input.kind, input.custom), input)).pipe(Effect.orDie)

  const list = (input: RecordListQuery) =>
    Effect.suspend(() => {
      const mapping = recordMapping(input.kind, input.custom)
      const statement = listStatement(sql, input)
      return Effect.map(statement.unprepared, (rows): RecordListResult => ({
        total: rows.length === 0 ? 0 : Number(rows[0]!.total),
        rows: rows.filter((row) => row.id !== null && row.id !== undefined).map((row) => decodeRecord(mapping, row))
      }))
    }).pipe(Effect.orDie)

  const linkScope = (input: RecordLink) => {
    const spec = LINKS[input.link]
    return {
      table: sql(spec.table),
      fromTable: sql(recordMapping(spec.from[0], []).storage.table),
      toTable: sql(recordMapping(spec.to[0], []).storage.table),
      from: sql(spec.from[1]),
      to: sql(spec.to[1])
    }
  }

  const link = (input: RecordLink) =>
    Effect.gen(function*() {
      const s = linkScope(input)
      const at = DateTime.toDateUtc(yield* nowOr(input.at))
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

  const unlink = (input: RecordLink) =>
    Effect.gen(function*() {
      const s = linkScope(input)
      const deleted = yield* sql`
        DELETE FROM ${s.table} WHERE account_id = ${input.accountId}::int8 AND ${s.from} = ${input.from}
          AND ${s.to} = ${input.to} RETURNING 1
      `
      return deleted.length > 0
    }).pipe(sql.withTransaction, Effect.orDie)

  const clearSideRows = (input: CustomPropertyScope) => {
    const scope = sql`account_id = ${input.accountId}::int8 AND property_id = ${input.property.id}`
    return Effect.all([
      sql`DELETE FROM record_values WHERE ${scope}`,
      sql`DELETE FROM record_value_elements WHERE ${scope}`
    ], { discard: true })
  }

  const dropPropertyValues = (input: CustomPropertyScope) =>
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
      yield* clearSideRows(input)
      return changed.length
    }).pipe(sql.withTransaction, Effect.orDie)

  const rebuildPropertyValues = (input: CustomPropertyScope) =>
    Effect.gen(function*() {
      const table = sql(KIND_STORAGE[input.kind].table)
      const p = input.property.id
      const a = input.accountId
      yield* clearSideRows(input)
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

  return RecordStorePg.of({
    insert,
    update,
    delete: del,
    get,
    list,
    link,
    unlink,
    dropPropertyValues,
    rebuildPropertyValues
  })
})

/** @ignore */
export const RecordStorePgBase: Context.ServiceClass<RecordStorePg, "@wasl/adapters/RecordStorePg", RecordStore> =
  Context.Service<RecordStorePg, RecordStore>()("@wasl/adapters/RecordStorePg")

/**
 * The record store on PostgreSQL (`SqlClient`, migrated): the storage under `RecordRepositoryPg`
 * and `PropertyValueStorePg`, exported for the records benchmark. `RecordStorePg.layer` provides it.
 */
export class RecordStorePg extends RecordStorePgBase {
  /** The store over the `SqlClient`. */
  static readonly layer: Layer.Layer<RecordStorePg, never, SqlClient.SqlClient> = Layer.effect(RecordStorePg, make)
}
