/**
 * The statement of a record list (`listStatement`), over the schema of migration 0004: the
 * parsed `complex_filters` AST of @wasl/core, `search`, `order` / `direction` and the page, in
 * one statement returning the page's rows and the exact total. `RecordRepositoryPg.list` runs it;
 * the records benchmark sends it raw too.
 *
 * Semantics are those of the core's reference evaluator (`matchesFilters`,
 * filter-evaluator.ts), which the property tests use as the oracle:
 *
 * - No value is NULL (the store never writes "" or []; a custom value without a value has no
 *   `record_values` row, a set without elements no element row). `is_empty` is `IS NULL` / `NOT
 *   EXISTS`; every other operator is false without a value — the negative ones too (`x <> v`
 *   is NULL when x is NULL; on custom values and sets the condition requires a value row).
 * - Text compares case-insensitively, `lower()` on both sides (custom texts are stored already
 *   folded by `lower()`; built-in single_selects hold lowercase option names, compared as they
 *   are with the folded value). Substring tests are `LIKE` on a pattern built here from the escaped
 *   value (`\`, `%`, `_`), never from SQL text. `lower()` in PostgreSQL's UTF-8 locales (C.UTF-8
 *   on the server and in PGlite) agrees with JavaScript's `toLowerCase` on every code point but
 *   U+0130 (İ) and a few dozen letters added in Unicode 16/17, and has no final-sigma rule; on
 *   those the results may differ from the evaluator's.
 * - Numbers are `double precision` (the evaluator's doubles); instants compare at the millisecond
 *   (the store writes whole milliseconds); `date` values are calendar days.
 * - Sets (multi_select, deal `contact_ids`, contact `deal_ids`): `eq`/`contains` some element
 *   equals, `neq`/`not_contains` a value and no element equals, `in` some element in the list,
 *   `not_in` a value and no element in it.
 *
 * Ordering: by the property's value (text: `left(lower(v), 255)` in code-point order; a set:
 * its folded elements sorted and joined by U+0001, first 255 characters; booleans false first),
 * then by `id` in the same direction; records without a value come last in both directions.
 * That is `ORDER BY key, id` over the records with a value, then `ORDER BY id` over those without,
 * written as two index-ordered branches (each `LIMIT offset + per_page`) under a `UNION ALL`, so
 * that one B-tree `(account_id, key, id)` serves both directions without sorting the account. The
 * second branch runs only when the first falls short of the page (a one-time filter on the count
 * of the first): records without a value are not searched for while those with one fill the page.
 *
 * Every value is a bound parameter. SQL identifiers come only from the whitelist in storage.ts;
 * custom properties are addressed by their id, bound as a parameter.
 *
 * @module
 */
import {
  type ComplexFilters,
  type Condition,
  type FilterScalar,
  type RecordListInput,
  storageOf,
  type ValueStorage
} from "@wasl/core/Records"
import { DateTime } from "effect"
import type { Fragment, Statement } from "effect/sql/Statement"
import type { SqlClient } from "effect/sql/SqlClient"
import {
  type BuiltinColumn,
  type CustomProperty,
  type LinkSet,
  type PropertyTarget,
  type RecordMapping,
  targetOf
} from "./storage.ts"

/** The SQL builder (`SqlClient` is one). */
type Sql = SqlClient

/**
 * What a list statement selects, validated by the core (`RecordListParams`): the account, the
 * filters, the search, the order with its direction and the page. The kind and its custom
 * properties come in the `RecordMapping`.
 */
export type ListStatementParams = Omit<RecordListInput, "kind" | "custom">

/** The characters of a text sort key (the B-tree key of text columns, migration 0004). */
export const TEXT_KEY_LENGTH = 255

/** A LIKE pattern matching `value` literally (the default escape character is `\`). */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`)

const defect = (message: string): never => {
  throw new Error(`records filter: ${message}`)
}

// -----------------------------------------------------------------------------------------------
// Values as parameters
// -----------------------------------------------------------------------------------------------

const isoDay = (dt: DateTime.Utc): string => DateTime.formatIso(dt).slice(0, 10)

/**
 * A filter value as a typed parameter for a value held as `storage`. `date` columns compare
 * days; custom dates are instants at UTC midnight (`asInstant`).
 */
const param = (sql: Sql, storage: ValueStorage, value: FilterScalar, asInstant = false): Fragment => {
  switch (storage) {
    case "text":
      return typeof value === "string" ? sql`lower(${value}::text)` : defect("a text condition needs a string")
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? sql`${value + 0}::float8`
        : defect("a number condition needs a finite number")
    case "boolean":
      return typeof value === "boolean" ? sql`${value}::boolean` : defect("a boolean condition needs a boolean")
    case "datetime":
    case "date": {
      if (!DateTime.isDateTime(value)) return defect("a date condition needs a DateTime")
      const utc = DateTime.toUtc(value)
      return storage === "date" && !asInstant
        ? sql`${isoDay(utc)}::date`
        : sql`${DateTime.toDateUtc(utc)}::timestamptz`
    }
  }
}

const likePattern = (sql: Sql, operator: Condition["operator"], value: FilterScalar): Fragment => {
  if (typeof value !== "string") return defect("a substring condition needs a string")
  const escaped = escapeLike(value)
  const pattern = operator === "starts_with" ? `${escaped}%` : operator === "ends_with" ? `%${escaped}` : `%${escaped}%`
  return sql`lower(${pattern}::text)`
}

// -----------------------------------------------------------------------------------------------
// Scalar conditions
// -----------------------------------------------------------------------------------------------

/** A scalar value in SQL: its (folded) value, and for text its B-tree key. */
interface ScalarSource {
  readonly storage: ValueStorage
  readonly value: Fragment
  /**
   * Text only: the key of the value, its first 255 characters (`TEXT_KEY_LENGTH`), which the
   * B-tree holds. A value shorter than that equals its key, so equality with a short value is
   * decided on the key alone (one index range, no recheck).
   */
  readonly key?: Fragment
  /** Custom dates are held as instants. */
  readonly dateAsInstant: boolean
}

const valuesOf = (condition: Condition): ReadonlyArray<FilterScalar> =>
  "value" in condition ? (Array.isArray(condition.value) ? condition.value : [condition.value as FilterScalar]) : []

/** Whether a text is shorter than the key length (characters: `lower()` maps one to one). */
const isShort = (value: FilterScalar): boolean =>
  typeof value === "string" && Array.from(value).length < TEXT_KEY_LENGTH

const keyLength = (sql: Sql) => sql.literal(String(TEXT_KEY_LENGTH))

/** The comparison of a present scalar value (presence is the caller's). */
const scalarPredicate = (sql: Sql, source: ScalarSource, condition: Condition): Fragment => {
  const p = (v: FilterScalar) => param(sql, source.storage, v, source.dateAsInstant)
  const v = source.value
  const values = valuesOf(condition)
  const one = () => values.length === 1 ? p(values[0]!) : defect(`${condition.operator} takes one value`)
  const list = () => values.length > 0 ? sql.csv(values.map(p)) : defect(`${condition.operator} takes a list`)
  const key = source.key
  switch (condition.operator) {
    case "eq": {
      const x = one()
      if (key === undefined) return sql`${v} = ${x}`
      return isShort(values[0]!) ? sql`${key} = ${x}` : sql`(${key} = left(${x}, ${keyLength(sql)}) AND ${v} = ${x})`
    }
    case "neq":
      return sql`${v} <> ${one()}`
    case "gt":
      return sql`${v} > ${one()}`
    case "gte":
      return sql`${v} >= ${one()}`
    case "lt":
      return sql`${v} < ${one()}`
    case "lte":
      return sql`${v} <= ${one()}`
    case "between":
      return values.length === 2
        ? sql`${v} BETWEEN ${p(values[0]!)} AND ${p(values[1]!)}`
        : defect("between takes two values")
    case "in": {
      if (key === undefined) return sql`${v} IN (${list()})`
      if (values.every(isShort)) return sql`${key} IN (${list()})`
      return sql`(${key} IN (${sql.csv(values.map((x) => sql`left(${p(x)}, ${keyLength(sql)})`))}) AND ${v} IN (${list()}))`
    }
    case "not_in":
      return sql`${v} NOT IN (${list()})`
    case "contains":
    case "starts_with":
    case "ends_with":
      return source.storage === "text"
        ? sql`${v} LIKE ${likePattern(sql, condition.operator, values[0]!)}`
        : defect(`${condition.operator} on a ${source.storage} value`)
    case "not_contains":
      return source.storage === "text"
        ? sql`${v} NOT LIKE ${likePattern(sql, "contains", values[0]!)}`
        : defect(`not_contains on a ${source.storage} value`)
    case "is_empty":
    case "is_not_empty":
      return defect("presence is not a comparison")
  }
}

const columnRef = (sql: Sql, column: BuiltinColumn): Fragment => sql`r.${sql(column.column)}`

/** The B-tree key of a folded text column, exactly as migration 0004 indexes it. */
const columnTextKey = (sql: Sql, column: BuiltinColumn): Fragment =>
  sql`left(lower(${columnRef(sql, column)}), ${keyLength(sql)}) COLLATE "C"`

const columnCondition = (sql: Sql, column: BuiltinColumn, condition: Condition): Fragment => {
  const ref = columnRef(sql, column)
  if (condition.operator === "is_empty") return sql`${ref} IS NULL`
  if (condition.operator === "is_not_empty") return sql`${ref} IS NOT NULL`
  const storage = storageOf(column.type)
  const source: ScalarSource = column.folded
    ? { storage, value: sql`lower(${ref})`, key: columnTextKey(sql, column), dateAsInstant: false }
    : { storage, value: ref, dateAsInstant: false }
  return scalarPredicate(sql, source, condition)
}

// -----------------------------------------------------------------------------------------------
// Custom values
// -----------------------------------------------------------------------------------------------

const VALUE_COLUMN: { readonly [S in ValueStorage]: string } = {
  text: "txt",
  number: "num",
  boolean: "bool",
  datetime: "ts",
  date: "ts"
}

/** The `record_values v` row of this record and property (with `more`). */
const customRow = (sql: Sql, property: CustomProperty, more?: Fragment): Fragment =>
  sql`EXISTS (SELECT 1 FROM record_values v WHERE v.account_id = r.account_id AND v.record_id = r.id
    AND v.property_id = ${property.id}${more === undefined ? sql`` : sql` AND ${more}`})`

const customCondition = (sql: Sql, property: CustomProperty, condition: Condition): Fragment => {
  if (property.type === "multi_select") {
    return setCondition(sql, {
      table: "record_value_elements",
      owner: "record_id",
      element: "elem",
      scope: sql` AND s.property_id = ${property.id}`
    }, condition)
  }
  if (condition.operator === "is_empty") return sql`NOT ${customRow(sql, property)}`
  if (condition.operator === "is_not_empty") return customRow(sql, property)
  const storage = storageOf(property.type)
  const column = sql.literal(`v.${VALUE_COLUMN[storage]}`)
  const source: ScalarSource = storage === "text"
    ? { storage, value: sql`coalesce(v.txt_long, v.txt)`, key: column, dateAsInstant: true }
    : { storage, value: column, dateAsInstant: true }
  return customRow(sql, property, sql`${column} IS NOT NULL AND ${scalarPredicate(sql, source, condition)}`)
}

// -----------------------------------------------------------------------------------------------
// Sets
// -----------------------------------------------------------------------------------------------

interface SetSource {
  readonly table: string
  readonly owner: string
  readonly element: string
  /** Further conditions on `s` (custom elements: kind and property). */
  readonly scope: Fragment
}

const linkSource = (sql: Sql, link: LinkSet): SetSource => ({
  table: link.table,
  owner: link.owner,
  element: link.element,
  scope: sql``
})

const setCondition = (sql: Sql, source: SetSource, condition: Condition): Fragment => {
  const elements = (more?: Fragment) =>
    sql`EXISTS (SELECT 1 FROM ${sql(source.table)} s
      WHERE s.account_id = r.account_id AND s.${sql(source.owner)} = r.id${source.scope}${
      more === undefined ? sql`` : sql` AND ${more}`
    })`
  const element = sql`s.${sql(source.element)}`
  const p = (v: FilterScalar) => param(sql, "text", v)
  const values = valuesOf(condition)
  switch (condition.operator) {
    case "is_empty":
      return sql`NOT ${elements()}`
    case "is_not_empty":
      return elements()
    case "eq":
    case "contains":
      return elements(sql`${element} = ${p(values[0]!)}`)
    case "neq":
    case "not_contains":
      return sql`(${elements()} AND NOT ${elements(sql`${element} = ${p(values[0]!)}`)})`
    case "in":
      return elements(sql`${element} IN (${sql.csv(values.map(p))})`)
    case "not_in":
      return sql`(${elements()} AND NOT ${elements(sql`${element} IN (${sql.csv(values.map(p))})`)})`
    default:
      // The parser accepts no other operator on a set (the evaluator: false).
      return sql`false`
  }
}

// -----------------------------------------------------------------------------------------------
// Filters
// -----------------------------------------------------------------------------------------------

const isSetType = (type: Condition["type"]) => type === "multi_select" || type === "record_ids"

const checkType = (condition: Condition, target: PropertyTarget): void => {
  const targetType = target._tag === "Column"
    ? target.column.type
    : target._tag === "Custom"
    ? target.property.type
    : "record_ids"
  const same = isSetType(condition.type) || isSetType(targetType)
    ? isSetType(condition.type) && isSetType(targetType)
    : storageOf(condition.type as Exclude<Condition["type"], "record_ids">) ===
        storageOf(targetType as Exclude<Condition["type"], "record_ids">)
  if (!same) defect(`"${condition.property}" is ${targetType}, the condition ${condition.type}`)
}

/** One condition over the record `r`, parenthesised. */
export const compileCondition = (sql: SqlClient, mapping: RecordMapping, condition: Condition): Fragment => {
  const target = targetOf(mapping, condition.property)
  checkType(condition, target)
  const compiled = target._tag === "Column"
    ? columnCondition(sql, target.column, condition)
    : target._tag === "Custom"
    ? customCondition(sql, target.property, condition)
    : setCondition(sql, linkSource(sql, target.link), condition)
  return sql`(${compiled})`
}

/** The filter over `r` (a conjunction of its nodes; `1=1` when empty). */
export const compileFilters = (sql: SqlClient, mapping: RecordMapping, filters: ComplexFilters): Fragment =>
  sql.and(filters.map((node) =>
    node._tag === "Or"
      ? node.conditions.length === 0
        ? sql`false`
        : sql`(${sql.or(node.conditions.map((c) => compileCondition(sql, mapping, c)))})`
      : compileCondition(sql, mapping, node)
  ))

/** `search` over `r`: the kind's name property (contacts: fullname, email, phone, whatsapp). */
export const compileSearch = (sql: SqlClient, mapping: RecordMapping, search: string): Fragment => {
  const spec = mapping.storage.search
  const pattern = sql`lower(${`%${escapeLike(search)}%`}::text)`
  const exact = spec.columns.map((name) => sql`lower(r.${sql(name)}) LIKE ${pattern}`)
  if (!spec.generated) return sql`(${exact[0]!})`
  // The indexed column narrows, the columns decide (the concatenation could match across them).
  return sql`(r.${sql(spec.indexed)} LIKE ${pattern} AND ${sql.or(exact)})`
}

/** The WHERE of a list: the account, the filter and the search. */
export const compileWhere = (
  sql: SqlClient,
  mapping: RecordMapping,
  spec: Pick<ListStatementParams, "accountId" | "filters" | "search">
): Fragment => {
  const clauses: Array<Fragment> = [sql`r.account_id = ${spec.accountId}::int8`]
  if (spec.filters.length > 0) clauses.push(compileFilters(sql, mapping, spec.filters))
  if (spec.search !== undefined && spec.search !== "") clauses.push(compileSearch(sql, mapping, spec.search))
  return sql.join(" AND ", false)(clauses)
}

// -----------------------------------------------------------------------------------------------
// Ordering and the page
// -----------------------------------------------------------------------------------------------

/** How a list orders on a name: the sort key, and the two branches when some records have no value. */
export interface OrderKey {
  /** The sort key. */
  readonly key: Fragment
  /** Joined in the branch of records with a value (custom values). */
  readonly join?: Fragment
  /** The id the branch orders on (the index's last column). */
  readonly tie: Fragment
  /** Records with a value; absent when every record has one. */
  readonly present?: Fragment
  /** Records without a value; absent when every record has one. */
  readonly absent?: Fragment
  /** The key's SQL type, for the NULL of the branch without a value. */
  readonly nullKey: Fragment
  /** The cast of a key's text back to the key (`::float8`, `::text COLLATE "C"`...), for a keyset position. */
  readonly keyCast: Fragment
}

const NULL_KEY: { readonly [S in ValueStorage]: string } = {
  text: `NULL::text COLLATE "C"`,
  number: "NULL::float8",
  boolean: "NULL::boolean",
  datetime: "NULL::timestamptz",
  date: "NULL::date"
}

/** The cast to a key of `storage`: its NULL's type. */
const keyCastOf = (sql: Sql, storage: ValueStorage): Fragment => sql.literal(NULL_KEY[storage].slice("NULL".length))

const setKey = (sql: Sql, source: SetSource): Fragment =>
  sql`(SELECT left(string_agg(lower(s.${sql(source.element)}), chr(1) ORDER BY lower(s.${
    sql(source.element)
  }) COLLATE "C"), ${keyLength(sql)}) COLLATE "C" FROM ${sql(source.table)} s
    WHERE s.account_id = r.account_id AND s.${sql(source.owner)} = r.id${source.scope})`

/** The order key of `order` (an internal_name or a timestamp) over records `r`. */
export const orderKey = (sql: Sql, mapping: RecordMapping, order: string): OrderKey => {
  const target = targetOf(mapping, order)
  switch (target._tag) {
    case "Column": {
      const column = target.column
      const storage = storageOf(column.type)
      const key = column.folded ? columnTextKey(sql, column) : columnRef(sql, column)
      const nullKey = sql.literal(NULL_KEY[storage])
      const keyCast = keyCastOf(sql, storage)
      return column.nullable
        ? { key, tie: sql`r.id`, present: sql`${key} IS NOT NULL`, absent: sql`${key} IS NULL`, nullKey, keyCast }
        : { key, tie: sql`r.id`, nullKey, keyCast }
    }
    case "Custom": {
      const property = target.property
      const storage = storageOf(property.type)
      const key = sql.literal(`v.${VALUE_COLUMN[storage]}`)
      return {
        key,
        join: sql`JOIN record_values v ON v.account_id = r.account_id AND v.record_id = r.id
          AND v.property_id = ${property.id}`,
        tie: sql`v.record_id`,
        present: sql`${key} IS NOT NULL`,
        absent: sql`NOT ${customRow(sql, property)}`,
        nullKey: sql.literal(storage === "date" ? NULL_KEY.datetime : NULL_KEY[storage]),
        keyCast: keyCastOf(sql, storage === "date" ? "datetime" : storage)
      }
    }
    case "Link": {
      const source = linkSource(sql, target.link)
      const key = setKey(sql, source)
      return {
        key,
        tie: sql`r.id`,
        present: sql`${key} IS NOT NULL`,
        absent: sql`${key} IS NULL`,
        nullKey: sql.literal(NULL_KEY.text),
        keyCast: keyCastOf(sql, "text")
      }
    }
  }
}

/** The columns a list or a get returns for a record `r`. */
export const selectColumns = (sql: SqlClient, mapping: RecordMapping, alias = "r"): Fragment =>
  sql.csv([
    sql`${sql(alias)}.id`,
    sql`${sql(alias)}.account_id`,
    ...mapping.storage.columns.map((c) => sql`${sql(alias)}.${sql(c.column)}`),
    sql`${sql(alias)}.custom`
  ])

/** `, <derived set values>` of the records `p` (contact `deal_ids`), or nothing. */
export const selectLinkSets = (sql: SqlClient, mapping: RecordMapping, alias = "p"): Fragment => {
  const sets = mapping.storage.links.filter((l) => l.derived).map((l) =>
    sql`ARRAY(SELECT s.${sql(l.element)} FROM ${sql(l.table)} s WHERE s.account_id = ${sql(alias)}.account_id
        AND s.${sql(l.owner)} = ${sql(alias)}.id ORDER BY s.${sql(l.element)}) AS ${sql(l.name)}`
  )
  return sets.length === 0 ? sql`` : sql`, ${sql.csv(sets)}`
}

/**
 * `, linked_contacts` of a deal `p`: its contacts as a JSON list of summaries (`_id`, `account_id`,
 * `firstname`, `lastname`), oldest link first, read in the same statement as the deal so that a
 * page of deals costs one round trip; nothing for the other kinds.
 */
export const selectLinkedContacts = (sql: SqlClient, mapping: RecordMapping, alias = "p"): Fragment =>
  mapping.storage.kind !== "deal" ? sql`` : sql`, (
    SELECT coalesce(json_agg(json_build_object('_id', c.id, 'account_id', c.account_id,
             'firstname', nullif(c.firstname, ''), 'lastname', nullif(c.lastname, '')) ORDER BY dc.created_at, c.id), '[]'::json)
    FROM deal_contacts dc JOIN contacts c ON c.account_id = dc.account_id AND c.id = dc.contact_id
    WHERE dc.account_id = ${sql(alias)}.account_id AND dc.deal_id = ${sql(alias)}.id
  ) AS linked_contacts`

/**
 * `, contact_channels` of a contact `p`: its channel entries as a JSON list (`_id`,
 * `platform_third_party_id`, `contact_third_party_id`, `created_at` as a UTC ISO timestamp with
 * microseconds), oldest first, in the contact's own statement; nothing for the other kinds.
 */
export const selectContactChannels = (sql: SqlClient, mapping: RecordMapping, alias = "p"): Fragment =>
  mapping.storage.kind !== "contact" ? sql`` : sql`, (
    SELECT coalesce(json_agg(json_build_object('_id', cc.id, 'platform_third_party_id', cc.platform_third_party_id,
             'contact_third_party_id', cc.contact_third_party_id,
             'created_at', to_char(cc.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
             ORDER BY cc.created_at, cc.id), '[]'::json)
    FROM contact_channels cc
    WHERE cc.account_id = ${sql(alias)}.account_id AND cc.contact_id = ${sql(alias)}.id
  ) AS contact_channels`

/**
 * The list statement: one row per record of the page, in order, each carrying `total`; a page past
 * the end is one row with `total` and every record column NULL (`id IS NULL`).
 *
 * `total` is the per-account counter (`record_counts`) when there is neither filter nor search,
 * else `count(*)` of the same WHERE.
 */
export const listStatement = (
  sql: SqlClient,
  mapping: RecordMapping,
  spec: ListStatementParams
): Statement<Record<string, unknown>> => {
  if (!(Number.isSafeInteger(spec.page) && spec.page >= 1)) defect(`page ${spec.page}`)
  if (!(Number.isSafeInteger(spec.perPage) && spec.perPage >= 1)) defect(`per_page ${spec.perPage}`)
  const table = sql(mapping.storage.table)
  const where = compileWhere(sql, mapping, spec)
  const unfiltered = spec.filters.length === 0 && (spec.search === undefined || spec.search === "")
  const total = unfiltered
    ? sql`SELECT coalesce(sum(total), 0)::int8 AS total FROM record_counts
        WHERE account_id = ${spec.accountId}::int8 AND kind = ${mapping.storage.kind}`
    : sql`SELECT count(*)::int8 AS total FROM ${table} r WHERE ${where}`

  const dir = sql.literal(spec.direction === "asc" ? "ASC" : "DESC")
  const offset = (spec.page - 1) * spec.perPage
  const columns = selectColumns(sql, mapping)
  const order = orderKey(sql, mapping, spec.order)
  const join = order.join ?? sql``

  const page = order.present === undefined || order.absent === undefined
    ? sql`SELECT ${columns}, ${order.key} AS sort_key, 0 AS grp FROM ${table} r ${join} WHERE ${where}
        ORDER BY ${order.key} ${dir}, ${order.tie} ${dir} LIMIT ${spec.perPage}::int8 OFFSET ${offset}::int8`
    : sql`WITH present AS MATERIALIZED (
        SELECT ${columns}, ${order.key} AS sort_key, 0 AS grp FROM ${table} r ${join}
        WHERE ${where} AND ${order.present}
        ORDER BY ${order.key} ${dir}, ${order.tie} ${dir} LIMIT ${offset + spec.perPage}::int8
      )
      SELECT u.* FROM (
        SELECT * FROM present
        UNION ALL
        (SELECT ${columns}, ${order.nullKey} AS sort_key, 1 AS grp FROM ${table} r
          WHERE ${where} AND ${order.absent} AND (SELECT count(*) FROM present) < ${offset + spec.perPage}::int8
          ORDER BY r.id ${dir} LIMIT ${offset + spec.perPage}::int8)
      ) u ORDER BY u.grp, u.sort_key ${dir}, u.id ${dir} LIMIT ${spec.perPage}::int8 OFFSET ${offset}::int8`

  return sql`SELECT c.total, p.*${selectLinkSets(sql, mapping)}${selectLinkedContacts(sql, mapping)}${selectContactChannels(sql, mapping)}
    FROM (${total}) c LEFT JOIN LATERAL (${page}) p ON true
    ORDER BY p.grp, p.sort_key ${dir}, p.id ${dir}`
}
