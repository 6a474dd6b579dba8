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
  matchesFilters,
  type ObjectKind,
  type PropertyDefinition,
  type RecordListInput,
  type RecordPage,
  SEARCH_PROPERTIES,
  storageOf
} from "@wasl/core"
import { type DerivationContext, listedValues, recordWithDerived } from "./record-derived.ts"
import { orderSpecOf, sortByKey, sortKeyOf } from "./record-order.ts"
import type { MemoryRecordRow } from "./record-tables.ts"
import { customOfKind } from "./record-values.ts"

const defect = (message: string): never => {
  throw new Error(`records list: ${message}`)
}

const isSet = (type: FilterValueType) => type === "multi_select" || type === "record_ids"

/** The type a filter on `name` compares under, or none. */
const filterTypeOf = (kind: ObjectKind, custom: ReadonlyArray<PropertyDefinition>, name: string) => {
  if (name === "created_at" || name === "updated_at") return "datetime"
  if (kind === "deal" && name === "contact_ids") return "record_ids"
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

/** The page `input` asks for, of `rows` (the account's records of the kind). */
export const listPage = (
  input: RecordListInput,
  rows: Iterable<MemoryRecordRow>,
  context: DerivationContext
): RecordPage => {
  if (!(Number.isSafeInteger(input.page) && input.page >= 1)) defect(`page ${input.page}`)
  if (!(Number.isSafeInteger(input.perPage) && input.perPage >= 1)) defect(`per_page ${input.perPage}`)
  const custom = customOfKind(input.kind, input.custom)
  checkFilters(input.kind, custom, input.filters)
  const spec = orderSpecOf(input.kind, custom, input.order)
  const search = input.search === undefined || input.search === "" ? undefined : input.search

  const matching: Array<{ readonly id: string; readonly row: MemoryRecordRow; readonly key: ReturnType<typeof sortKeyOf> }> = []
  for (const row of rows) {
    const values = listedValues(input.kind, row, custom, context.links)
    if (!matchesFilters(values, input.filters)) continue
    if (search !== undefined && !matchesSearch(input.kind, values, search)) continue
    matching.push({ id: row.id, row, key: sortKeyOf(spec, values[input.order]) })
  }
  const offset = (input.page - 1) * input.perPage
  const page = sortByKey(matching, input.direction).slice(offset, offset + input.perPage)
  return { rows: page.map((entry) => recordWithDerived(entry.row, custom, context)), total: matching.length }
}
