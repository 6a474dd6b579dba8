/**
 * The condition tree of the `complex_filters` language and its operator tables: a filter is a
 * list of nodes that must all hold; a node is a condition `{ property, operator, value }` or one
 * level of `{ or: [conditions] }`. Parsed by complex-filter.ts, written back to a query by
 * filter-query-writer.ts, turned into SQL by the adapters and evaluated by filter-evaluator.ts.
 */
import type { DateTime } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { PropertyType } from "./property-type.ts"

/** Every operator of the filter language (see `operatorsFor` for the ones each type accepts). */
export const FILTER_OPERATORS = [
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "between",
  "in",
  "not_in",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "is_empty",
  "is_not_empty"
] as const
/** A filter operator (`eq`, `gt`, `between`, `in`, `contains`, `is_empty`, ...). */
export type FilterOperator = typeof FILTER_OPERATORS[number]

/** Operators taking one value. */
export type ScalarOperator = Exclude<FilterOperator, "between" | "in" | "not_in" | "is_empty" | "is_not_empty">
/** Operators taking a list. */
export type ListOperator = "in" | "not_in"
/** Operators taking no value. */
export type PresenceOperator = "is_empty" | "is_not_empty"

/** At most this many conditions, those inside or-groups included. */
export const MAX_FILTER_CONDITIONS = 20
/** At most this many values in an `in` / `not_in` list. */
export const MAX_FILTER_LIST_LENGTH = 100
/** The field name of a filter. */
export const COMPLEX_FILTERS_KEY = "complex_filters"
/** Deals filter on their linked contacts: `contact_ids` with `in`. */
export const CONTACT_IDS_FILTER = "contact_ids"

/**
 * The link filters of each kind: sets of linked record ids a list filters on with `in` although
 * the record does not show them as a property (a deal shows its contacts as `contacts`; a ticket
 * shows only its link counts). The links a kind shows as a derived property (a contact's
 * `deal_ids`, a company's `contact_ids`, …) are filtered as that property.
 */
export const LINK_FILTERS: { readonly [K in ObjectKind]: ReadonlyArray<string> } = {
  contact: [],
  company: [],
  deal: [CONTACT_IDS_FILTER],
  ticket: [CONTACT_IDS_FILTER, "deal_ids"],
  invoice: [],
  product: []
}

/**
 * The type a condition compares under: the property's type, or `record_ids` for a link filter
 * (`LINK_FILTERS`: a set of 24-hex record ids, compared like a multi_select).
 */
export type FilterValueType = PropertyType | "record_ids"

/**
 * A coerced filter value: a string (text, select option, record id), a finite number (never -0),
 * a boolean, or an instant (datetime; for `date` properties the UTC midnight of the day).
 */
export type FilterScalar = string | number | boolean | DateTime.Utc

/** What every condition holds: the property it reads and the type it compares under. */
export interface ConditionBase {
  /** Marks a condition (an or-group is `Or`). */
  readonly _tag: "Condition"
  /** The internal_name of the property the condition reads. */
  readonly property: string
  /** The type its values are coerced to and compared under. */
  readonly type: FilterValueType
}
/**
 * A condition with one value: `eq`, `neq`, the orderings `gt`, `gte`, `lt`, `lte`, and the
 * substring tests `contains`, `not_contains`, `starts_with`, `ends_with`.
 */
export interface ScalarCondition extends ConditionBase {
  /** The comparison. */
  readonly operator: ScalarOperator
  /** The value the record's value is compared with. */
  readonly value: FilterScalar
}
/** `between [low, high]`: holds when low ≤ value ≤ high, both bounds included. */
export interface RangeCondition extends ConditionBase {
  /** Always `between`. */
  readonly operator: "between"
  /** The low and high bounds. */
  readonly value: readonly [FilterScalar, FilterScalar]
}
/** `in` / `not_in`: the record's value equals one / none of the list. */
export interface ListCondition extends ConditionBase {
  /** `in` or `not_in`. */
  readonly operator: ListOperator
  /** The values (at most `MAX_FILTER_LIST_LENGTH`). */
  readonly value: ReadonlyArray<FilterScalar>
}
/** `is_empty` / `is_not_empty`: the record has no value / has one (absent, null, "" and [] are none). */
export interface PresenceCondition extends ConditionBase {
  /** `is_empty` or `is_not_empty`. */
  readonly operator: PresenceOperator
}
/** One validated condition `{ property, operator, value }`, its value coerced to the property's type. */
export type Condition = ScalarCondition | RangeCondition | ListCondition | PresenceCondition

/** Holds when any of its conditions holds. */
export interface OrGroup {
  /** Marks an or-group. */
  readonly _tag: "Or"
  /** Its conditions (or-groups do not nest). */
  readonly conditions: ReadonlyArray<Condition>
}

/** One entry of a filter list: a condition, or an or-group of conditions. */
export type FilterNode = Condition | OrGroup
/** All nodes must hold; an empty list holds for every record. */
export type ComplexFilters = ReadonlyArray<FilterNode>

const TEXT_OPERATORS: ReadonlyArray<FilterOperator> = [
  "eq",
  "neq",
  "in",
  "not_in",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "is_empty",
  "is_not_empty"
]
const ORDERED_OPERATORS: ReadonlyArray<FilterOperator> = [
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "between",
  "in",
  "not_in",
  "is_empty",
  "is_not_empty"
]
const EQUALITY_OPERATORS: ReadonlyArray<FilterOperator> = ["eq", "neq", "in", "not_in", "is_empty", "is_not_empty"]
const MULTI_SELECT_OPERATORS: ReadonlyArray<FilterOperator> = [
  "eq",
  "neq",
  "in",
  "not_in",
  "contains",
  "not_contains",
  "is_empty",
  "is_not_empty"
]

/**
 * The operators a type accepts. Text types: equality, lists, substring tests, presence. Numbers
 * and dates: equality, ordering, `between`, lists, presence. Booleans and single selects:
 * equality, lists, presence. Multi selects: equality, lists, `contains` / `not_contains`
 * (element membership), presence. `record_ids` (the link filters): `in` only.
 */
export const operatorsFor = (type: FilterValueType): ReadonlyArray<FilterOperator> => {
  switch (type) {
    case "number":
    case "date":
    case "datetime":
      return ORDERED_OPERATORS
    case "boolean":
    case "single_select":
      return EQUALITY_OPERATORS
    case "multi_select":
      return MULTI_SELECT_OPERATORS
    case "record_ids":
      return ["in"]
    default:
      return TEXT_OPERATORS
  }
}
