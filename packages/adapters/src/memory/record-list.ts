/**
 * A page of a record list over an account's records of one kind, as PostgreSQL's
 * list statement gives it (list-statement.ts):
 *
 * - `complex_filters` are the core's reference evaluator (`matchesFilters`, filter-evaluator.ts),
 *   which the SQL compiler is tested against, over the values a list reads (record-derived.ts);
 * - `search`: a case-insensitive substring of any of the kind's search properties
 *   (`SEARCH_PROPERTIES`; contacts: fullname, email, phone, whatsapp_number), taken literally;
 *   an empty one is none;
 * - the order of record-order.ts, then the page: `per_page` records from `(page - 1) * per_page`;
 * - `total`: every record matching, over all pages.
 *
 * A condition on a name that is no filterable property of the kind, or of another type than the
 * property's, and a page or per_page that is not a positive integer are defects, as the SQL
 * compiler's (the core's parser never produces one).
 *
 * @module
 */
import {
  type ComplexFilters,
  definitionsOf,
  type FilterValueType,
  foldCase,
  LINK_FILTERS,
  matchesFilters,
  type ObjectKind,
  type PropertyDefinition,
  type RecordListInput,
  type RecordPage,
  type RecordScanBatch,
  type RecordScanInput,
  SEARCH_PROPERTIES,
  storageOf
} from "@wasl/core/Records"
import { type DerivationContext, listedValues, recordWithDerived } from "./record-derived.ts"
import { compareInOrder, type OrderPlace, orderSpecOf, sortByKey, type SortKey, sortKeyOf } from "./record-order.ts"
import type { MemoryRecordRow } from "./record-tables.ts"
import { customOfKind } from "./record-values.ts"

const defect = (message: string): never => {
  throw new Error(`records list: ${message}`)
}

const isSet = (type: FilterValueType) => type === "multi_select" || type === "record_ids"

/** The type a filter on `name` compares under, or none. */
const filterTypeOf = (kind: ObjectKind, custom: ReadonlyArray<PropertyDefinition>, name: string) => {
  if (name === "created_at" || name === "updated_at") return "datetime"
  if (LINK_FILTERS[kind].includes(name)) return "record_ids"
  return definitionsOf(kind, custom).find((d) => d.internal_name === name)?.type
}

const checkFilters = (kind: ObjectKind, custom: ReadonlyArray<PropertyDefinition>, filters: ComplexFilters) => {
  for (const node of filters) {
    for (const condition of node._tag === "Or" ? node.conditions : [node]) {
      const type = filterTypeOf(kind, custom, condition.property)
      if (type === undefined) defect(`"${condition.property}" is no property of ${kind}`)
      const same = isSet(type!) || isSet(condition.type)
        ? isSet(type!) && isSet(condition.type)
        : storageOf(type as Exclude<FilterValueType, "record_ids">) ===
          storageOf(condition.type as Exclude<FilterValueType, "record_ids">)
      if (!same) defect(`"${condition.property}" is ${type}, the condition ${condition.type}`)
    }
  }
}

const matchesSearch = (kind: ObjectKind, values: Readonly<Record<string, unknown>>, search: string): boolean => {
  const term = foldCase(search)
  return SEARCH_PROPERTIES[kind].some((name) => {
    const value = values[name]
    return typeof value === "string" && foldCase(value).includes(term)
  })
}

/** A matching record with its place in the order. */
interface MatchingRow extends OrderPlace {
  readonly row: MemoryRecordRow
  readonly key: SortKey | undefined
}

/** The records of `rows` (the account's records of the kind) that `input` matches, in its order. */
const sortedMatches = (
  input: RecordScanInput,
  rows: Iterable<MemoryRecordRow>,
  context: DerivationContext
): Array<MatchingRow> => {
  const custom = customOfKind(input.kind, input.custom)
  checkFilters(input.kind, custom, input.filters)
  const spec = orderSpecOf(input.kind, custom, input.order)
  const search = input.search === undefined || input.search === "" ? undefined : input.search

  const matching: Array<MatchingRow> = []
  for (const row of rows) {
    const values = listedValues(input.kind, row, custom, context.links)
    if (!matchesFilters(values, input.filters)) continue
    if (search !== undefined && !matchesSearch(input.kind, values, search)) continue
    matching.push({ id: row.id, row, key: sortKeyOf(spec, values[input.order]) })
  }
  return sortByKey(matching, input.direction)
}

/** The page `input` asks for, of `rows` (the account's records of the kind). */
export const listPage = (
  input: RecordListInput,
  rows: Iterable<MemoryRecordRow>,
  context: DerivationContext
): RecordPage => {
  if (!(Number.isSafeInteger(input.page) && input.page >= 1)) defect(`page ${input.page}`)
  if (!(Number.isSafeInteger(input.perPage) && input.perPage >= 1)) defect(`per_page ${input.perPage}`)
  const custom = customOfKind(input.kind, input.custom)
  const matching = sortedMatches(input, rows, context)
  const offset = (input.page - 1) * input.perPage
  const page = matching.slice(offset, offset + input.perPage)
  return { rows: page.map((entry) => recordWithDerived(entry.row, custom, context)), total: matching.length }
}

/**
 * A scan's batch of `rows`: the next `limit` matches after the place `after` in the order, by key
 * and id as the PostgreSQL scan goes. The position is this adapter's own: the JSON of the last
 * place, `{ id, key }` (no `key`: no value).
 */
export const scanBatch = (
  input: RecordScanInput,
  after: string | null,
  limit: number,
  rows: Iterable<MemoryRecordRow>,
  context: DerivationContext
): RecordScanBatch => {
  if (!(Number.isSafeInteger(limit) && limit >= 1)) defect(`limit ${limit}`)
  const custom = customOfKind(input.kind, input.custom)
  const from = after === null ? undefined : JSON.parse(after) as OrderPlace
  const compare = compareInOrder(input.direction)
  const batch = sortedMatches(input, rows, context).filter((entry) => from === undefined || compare(entry, from) > 0)
    .slice(0, limit)
  const last = batch.at(-1)
  return {
    rows: batch.map((entry) => recordWithDerived(entry.row, custom, context)),
    after: last === undefined ? after : JSON.stringify({ id: last.id, key: last.key })
  }
}
