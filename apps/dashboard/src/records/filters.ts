/**
 * The filter builder's model: conditions and `or` groups as the list's `complex_filters` takes
 * them, each value kept as typed text until it is sent, then read by operator and property type.
 */
import type { paths } from "../api/schema"

type ListQuery = NonNullable<paths["/api/{kind}"]["get"]["parameters"]["query"]>
/** A condition or an `or` group, as the API takes them. */
export type ApiFilter = NonNullable<ListQuery["complex_filters"]>[number]
export type Operator = Extract<ApiFilter, { operator: unknown }>["operator"]

export const OPERATORS: ReadonlyArray<Operator> = [
  "eq", "neq", "gt", "gte", "lt", "lte", "between", "in", "not_in",
  "contains", "not_contains", "starts_with", "ends_with", "is_empty", "is_not_empty"
]

/** How many inputs an operator's value takes. */
export const operandOf = (operator: Operator): "none" | "one" | "range" | "list" =>
  operator === "is_empty" || operator === "is_not_empty"
    ? "none"
    : operator === "between"
    ? "range"
    : operator === "in" || operator === "not_in"
    ? "list"
    : "one"

/** One condition being edited: the value as typed (two texts for between). */
export interface Condition {
  readonly property: string
  readonly operator: Operator
  readonly value: string
  readonly high: string
}

/** A row of the builder: a condition, or an `or` group of conditions. */
export type FilterRow = { readonly condition: Condition } | { readonly or: ReadonlyArray<Condition> }

export const emptyCondition = (property: string): Condition => ({ property, operator: "eq", value: "", high: "" })

const scalar = (text: string, numeric: boolean): string | number => {
  const trimmed = text.trim()
  return numeric && trimmed !== "" && !Number.isNaN(Number(trimmed)) ? Number(trimmed) : trimmed
}

const toApiCondition = (condition: Condition, isNumeric: (property: string) => boolean) => {
  const { operator, property } = condition
  const numeric = isNumeric(property)
  switch (operandOf(operator)) {
    case "none":
      return { property, operator }
    case "range":
      return { property, operator, value: [scalar(condition.value, numeric), scalar(condition.high, numeric)] }
    case "list":
      return { property, operator, value: condition.value.split(",").map((item) => scalar(item, numeric)) }
    case "one":
      return { property, operator, value: scalar(condition.value, numeric) }
  }
}

/** The rows as `complex_filters`; numbers for number properties, text for the rest. */
export const toApiFilters = (rows: ReadonlyArray<FilterRow>, isNumeric: (property: string) => boolean): Array<ApiFilter> =>
  rows.map((row) =>
    "condition" in row
      ? toApiCondition(row.condition, isNumeric)
      : { or: row.or.map((condition) => toApiCondition(condition, isNumeric)) }
  )

const fromApiCondition = (filter: Extract<ApiFilter, { operator: unknown }>): Condition => {
  const value = "value" in filter ? filter.value : undefined
  const text = (v: unknown) => (v === undefined || v === null ? "" : String(v))
  if (!Array.isArray(value)) return { property: filter.property, operator: filter.operator, value: text(value), high: "" }
  return operandOf(filter.operator) === "range"
    ? { property: filter.property, operator: filter.operator, value: text(value[0]), high: text(value[1]) }
    : { property: filter.property, operator: filter.operator, value: value.map(text).join(","), high: "" }
}

/** A saved `complex_filters` (a view's) as rows of the builder, values as text again. */
export const fromApiFilters = (filters: ReadonlyArray<unknown>): Array<FilterRow> =>
  (filters as ReadonlyArray<ApiFilter>).map((filter) =>
    "or" in filter ? { or: filter.or.map(fromApiCondition) } : { condition: fromApiCondition(filter) }
  )
