/**
 * A parsed `complex_filters` written back: as JSON (for `complex_filters=<json>`) or as
 * bracket-notation query pairs (for page links and clients), the inverse of complex-filter.ts.
 */
import { DateTime } from "effect"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { COMPLEX_FILTERS_KEY, type ComplexFilters, type Condition, type FilterScalar } from "./filter-condition.ts"

/** A value as JSON writes it: instants as wire timestamps (`2026-11-21T17:24:05.123000Z`). */
export const encodeFilterScalar = (value: FilterScalar): string | number | boolean =>
  DateTime.isDateTime(value) ? formatWireTimestamp(value) : value

const encodeCondition = (c: Condition): Record<string, unknown> =>
  "value" in c
    ? {
      property: c.property,
      operator: c.operator,
      value: Array.isArray(c.value) ? c.value.map(encodeFilterScalar) : encodeFilterScalar(c.value as FilterScalar)
    }
    : { property: c.property, operator: c.operator }

/** The JSON form of a filter (`JSON.stringify` it for `complex_filters=`). */
export const encodeComplexFilters = (filters: ComplexFilters): ReadonlyArray<Record<string, unknown>> =>
  filters.map((node) => node._tag === "Or" ? { or: node.conditions.map(encodeCondition) } : encodeCondition(node))

const conditionPairs = (c: Condition, prefix: string, out: Array<readonly [string, string]>) => {
  out.push([`${prefix}[property]`, c.property], [`${prefix}[operator]`, c.operator])
  if (!("value" in c)) return
  const text = (v: FilterScalar) => String(encodeFilterScalar(v))
  if (Array.isArray(c.value)) c.value.forEach((v, i) => out.push([`${prefix}[value][${i}]`, text(v)]))
  else out.push([`${prefix}[value]`, text(c.value as FilterScalar)])
}

/** The bracket-notation form of a filter: URL-decoded query pairs, indices written out. */
export const complexFiltersToQuery = (filters: ComplexFilters): ReadonlyArray<readonly [string, string]> => {
  const out: Array<readonly [string, string]> = []
  filters.forEach((node, i) => {
    const prefix = `${COMPLEX_FILTERS_KEY}[${i}]`
    if (node._tag === "Or") node.conditions.forEach((c, j) => conditionPairs(c, `${prefix}[or][${j}]`, out))
    else conditionPairs(node, prefix, out)
  })
  return out
}
