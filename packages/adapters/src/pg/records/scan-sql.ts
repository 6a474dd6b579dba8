/**
 * The records scan compiled to SQL: every record a list matches, in the list's order, for a
 * cursor to read (record-repository-pg.ts `scan`). The list's statement (list-statement.ts `listStatement`)
 * with neither page nor total: the same WHERE, the same order key and the same two branches
 * (records with a value for the order first, then those without, by id), so an export lists what
 * the pages of `GET /api/{kind}` list, in the same order.
 */
import type { SqlClient } from "effect/sql/SqlClient"
import type { Statement } from "effect/sql/Statement"
import {
  compileWhere,
  type ListStatementParams,
  orderKey,
  selectColumns,
  selectLinkedContacts,
  selectLinkSets
} from "./list-statement.ts"
import type { RecordMapping } from "./storage.ts"

/** A list request without its page. */
export type RecordScanSpec = Omit<ListStatementParams, "page" | "perPage">

/** The statement of every record `spec` matches, in order, with what the records' shapes derive from links. */
export const compileScan = (sql: SqlClient, mapping: RecordMapping, spec: RecordScanSpec): Statement<Record<string, unknown>> => {
  const table = sql(mapping.storage.table)
  const where = compileWhere(sql, mapping, spec)
  const dir = sql.literal(spec.direction === "asc" ? "ASC" : "DESC")
  const columns = selectColumns(sql, mapping)
  const order = orderKey(sql, mapping, spec.order)
  const join = order.join ?? sql``
  const rows = order.present === undefined || order.absent === undefined
    ? sql`SELECT ${columns}, ${order.key} AS sort_key, 0 AS grp FROM ${table} r ${join} WHERE ${where}`
    : sql`SELECT ${columns}, ${order.key} AS sort_key, 0 AS grp FROM ${table} r ${join} WHERE ${where} AND ${order.present}
      UNION ALL
      SELECT ${columns}, ${order.nullKey} AS sort_key, 1 AS grp FROM ${table} r WHERE ${where} AND ${order.absent}`
  return sql`SELECT p.*${selectLinkSets(sql, mapping)}${selectLinkedContacts(sql, mapping)}
    FROM (${rows}) p ORDER BY p.grp, p.sort_key ${dir}, p.id ${dir}`
}
