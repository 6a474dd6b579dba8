/**
 * A records scan's batch compiled to SQL (record-repository-pg.ts `scanBatch`): the next records a
 * list matches, in the list's order, after a position, by keyset. The list's statement
 * (list-statement.ts `listStatement`) with a position instead of an offset and no total: the same
 * WHERE, the same order key and the same two branches (records with a value for the order first,
 * then those without, by id), so an export lists what the pages of `GET /api/{kind}` list, in the
 * same order.
 *
 * The position is the last record's place: `[branch, key as text, id]` as JSON (the key is NULL in
 * the branch without a value). The next batch starts strictly after it: `(key, id) > (k, i)`
 * (`<` descending) in the first branch, then the whole second; `id > i` within the second. The
 * key goes out as its text and comes back through the key's own cast (`keyCast`), which gives the
 * same value (PostgreSQL prints floats and instants exactly), so no record is lost or repeated at a
 * batch's edge. The row comparison follows the index `(account_id, key, id)`: a batch reads its
 * records from the index, not the account. The exception is an order on a link set (a deal's
 * `contact_ids`), which has no index: each batch sorts the account's matches, as each page of
 * such a list does.
 */
import type { SqlClient } from "effect/sql/SqlClient"
import type { Fragment, Statement } from "effect/sql/Statement"
import {
  compileWhere,
  type ListStatementParams,
  orderKey,
  selectColumns,
  selectContactChannels,
  selectLinkedContacts,
  selectLinkSets
} from "./list-statement.ts"
import type { RecordMapping } from "./storage.ts"

/** A list request without its page. */
export type RecordScanSpec = Omit<ListStatementParams, "page" | "perPage">

/** Where a batch ended: the branch (0: with a value, 1: without), the key's text and the id. */
export type ScanPosition = readonly [0 | 1, string | null, string]

/** The position after `row` of a batch (its `grp`, `sort_text` and `id`). */
export const positionOf = (row: Record<string, unknown>): string =>
  JSON.stringify([Number(row.grp), row.sort_text ?? null, row.id] satisfies [number, unknown, unknown])

/** The statement of the next `limit` records `spec` matches after `after` (null: from the first), in order. */
export const compileScanBatch = (
  sql: SqlClient,
  mapping: RecordMapping,
  spec: RecordScanSpec,
  after: string | null,
  limit: number
): Statement<Record<string, unknown>> => {
  if (!(Number.isSafeInteger(limit) && limit >= 1)) throw new Error(`records scan: limit ${limit}`)
  const [grp, keyText, lastId] = after === null ? [0, null, null] : JSON.parse(after) as ScanPosition
  const table = sql(mapping.storage.table)
  const where = compileWhere(sql, mapping, spec)
  const dir = sql.literal(spec.direction === "asc" ? "ASC" : "DESC")
  const beyond = sql.literal(spec.direction === "asc" ? ">" : "<")
  const n = sql`${limit}::int8`
  const columns = selectColumns(sql, mapping)
  const order = orderKey(sql, mapping, spec.order)
  const join = order.join ?? sql``
  const afterKey: Fragment = lastId === null
    ? sql``
    : sql` AND (${order.key}, ${order.tie}) ${beyond} (${keyText}${order.keyCast}, ${lastId}::text)`
  const withValue = (more: Fragment) =>
    sql`SELECT ${columns}, ${order.key} AS sort_key, (${order.key})::text AS sort_text, 0 AS grp
      FROM ${table} r ${join} WHERE ${where}${more}${afterKey}
      ORDER BY ${order.key} ${dir}, ${order.tie} ${dir} LIMIT ${n}`
  const withoutValue = (more: Fragment) =>
    sql`SELECT ${columns}, ${order.nullKey} AS sort_key, NULL::text AS sort_text, 1 AS grp
      FROM ${table} r WHERE ${where} AND ${order.absent!}${more} ORDER BY r.id ${dir} LIMIT ${n}`
  const rows = order.present === undefined || order.absent === undefined
    ? withValue(sql``)
    : grp === 1
    ? withoutValue(sql` AND r.id ${beyond} ${lastId}::text`)
    : sql`WITH present AS MATERIALIZED (${withValue(sql` AND ${order.present}`)})
      SELECT * FROM present
      UNION ALL
      (${withoutValue(sql` AND (SELECT count(*) FROM present) < ${n}`)})`
  return sql`SELECT p.*${selectLinkSets(sql, mapping)}${selectLinkedContacts(sql, mapping)}${selectContactChannels(sql, mapping)}
    FROM (${rows}) p ORDER BY p.grp, p.sort_key ${dir}, p.id ${dir} LIMIT ${n}`
}
