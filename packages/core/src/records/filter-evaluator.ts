/**
 * In-memory evaluation of a parsed `complex_filters` AST against one record's values. It is the
 * reference semantics of the filter language: the SQL compiler must select exactly the records
 * this accepts (its property tests use this as the oracle).
 *
 * Semantics, precisely:
 *
 * - A filter is a list of nodes, all of which must hold (an empty list holds for every record).
 *   An or-group holds when at least one of its conditions holds.
 * - A condition reads `values[property]`. "No value" is: absent (undefined), null, the empty
 *   string "" or the empty array [].
 * - `is_empty` holds exactly when there is no value; `is_not_empty` exactly when there is one.
 * - Every other operator is false on a record without a value — including the negative ones
 *   `neq`, `not_in` and `not_contains`. This is SQL's three-valued logic: `x <> v`,
 *   `x NOT IN (...)` and `x NOT ILIKE ...` are NULL, not true, when x is NULL (the SQL compiler
 *   must treat "" and empty arrays as NULL too, e.g. with NULLIF). To include records without a
 *   value, a client writes `{ or: [ { …neq… }, { …is_empty } ] }`.
 * - A present value is read as the condition's type: text and single_select take strings;
 *   number takes a finite number or a decimal string; boolean takes true/false, 1/0, "true",
 *   "false", "1", "0"; date/datetime take a DateTime or any date input (ISO 8601,
 *   epoch milliseconds, the `{ $date: { $numberLong } }` object; a `date` is truncated to its UTC
 *   day, so dates compare by calendar day); multi_select and record_ids take an array of strings
 *   (a lone string counts as a one-element array, non-string elements are ignored). A present
 *   value that cannot be read so matches nothing but `is_not_empty`.
 * - Strings compare case-insensitively everywhere (equality, lists, substring tests), after
 *   `foldCase` (JavaScript's locale-independent `toLowerCase`). Numbers compare numerically,
 *   booleans by identity, instants by epoch millisecond.
 * - Scalars: `eq` / `neq` equal / not equal; `gt`, `gte`, `lt`, `lte` ordered comparison of
 *   record value against filter value (numbers and instants); `between [low, high]` holds when
 *   low ≤ v ≤ high (both inclusive; nothing matches when low > high); `in` / `not_in` v equals
 *   one / none of the list; `contains`, `not_contains`, `starts_with`, `ends_with` substring
 *   tests of the record's text.
 * - Sets (multi_select, record_ids), with E the record's elements: `eq v` and `contains v` hold
 *   when some element equals v; `neq v` and `not_contains v` when none does; `in L` when some
 *   element is in L; `not_in L` when none is.
 */
import { DateTime } from "effect"
import {
  coerceBoolean,
  coerceInstant,
  coerceNumber,
  type ComplexFilters,
  type Condition,
  type FilterScalar,
  type FilterValueType
} from "./complex-filter.ts"

/** The case folding of every string comparison. */
export const foldCase = (s: string): string => s.toLowerCase()

/** Absent, null, "" or []: what `is_empty` means and what every comparison fails on. */
export const hasNoValue = (value: unknown): boolean =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)

const isSetType = (type: FilterValueType) => type === "multi_select" || type === "record_ids"

/** A comparable form: folded strings, numbers, booleans, instants as epoch ms. */
type Key = string | number | boolean

const keyOf = (v: FilterScalar): Key =>
  DateTime.isDateTime(v) ? DateTime.toEpochMillis(v) : typeof v === "string" ? foldCase(v) : v

/** A record's scalar value read under the condition's type, as a comparable key. */
const readScalar = (type: FilterValueType, raw: unknown): Key | undefined => {
  switch (type) {
    case "number":
      return coerceNumber(raw)
    case "boolean":
      return coerceBoolean(raw)
    case "date":
    case "datetime": {
      const instant = coerceInstant(raw, type)
      return instant === undefined ? undefined : DateTime.toEpochMillis(instant)
    }
    default:
      return typeof raw === "string" ? foldCase(raw) : undefined
  }
}

/** A record's set value: its string elements, folded. */
const readSet = (raw: unknown): ReadonlyArray<string> | undefined =>
  typeof raw === "string"
    ? [foldCase(raw)]
    : Array.isArray(raw)
    ? raw.filter((e): e is string => typeof e === "string").map(foldCase)
    : undefined

const matchesSet = (condition: Condition, elements: ReadonlyArray<string>): boolean => {
  switch (condition.operator) {
    case "eq":
    case "contains":
      return elements.includes(keyOf(condition.value) as string)
    case "neq":
    case "not_contains":
      return !elements.includes(keyOf(condition.value) as string)
    case "in": {
      const list = condition.value.map(keyOf)
      return elements.some((e) => list.includes(e))
    }
    case "not_in": {
      const list = condition.value.map(keyOf)
      return !elements.some((e) => list.includes(e))
    }
    default:
      // The parser accepts no other operator on a set type.
      return false
  }
}

const matchesScalar = (condition: Condition, v: Key): boolean => {
  switch (condition.operator) {
    case "eq":
      return v === keyOf(condition.value)
    case "neq":
      return v !== keyOf(condition.value)
    case "gt":
      return v > keyOf(condition.value)
    case "gte":
      return v >= keyOf(condition.value)
    case "lt":
      return v < keyOf(condition.value)
    case "lte":
      return v <= keyOf(condition.value)
    case "between":
      return keyOf(condition.value[0]) <= v && v <= keyOf(condition.value[1])
    case "in":
      return condition.value.some((x) => keyOf(x) === v)
    case "not_in":
      return !condition.value.some((x) => keyOf(x) === v)
    case "contains":
      return typeof v === "string" && v.includes(keyOf(condition.value) as string)
    case "not_contains":
      return typeof v === "string" && !v.includes(keyOf(condition.value) as string)
    case "starts_with":
      return typeof v === "string" && v.startsWith(keyOf(condition.value) as string)
    case "ends_with":
      return typeof v === "string" && v.endsWith(keyOf(condition.value) as string)
    default:
      return false
  }
}

/** Whether one condition holds for a record's values (see the module comment). */
export const matchesCondition = (values: Readonly<Record<string, unknown>>, condition: Condition): boolean => {
  const raw = Object.hasOwn(values, condition.property) ? values[condition.property] : undefined
  if (condition.operator === "is_empty") return hasNoValue(raw)
  if (condition.operator === "is_not_empty") return !hasNoValue(raw)
  if (hasNoValue(raw)) return false
  if (isSetType(condition.type)) {
    const elements = readSet(raw)
    return elements !== undefined && matchesSet(condition, elements)
  }
  const v = readScalar(condition.type, raw)
  return v !== undefined && matchesScalar(condition, v)
}

/** Whether a record's values satisfy a whole filter: every node, an or-group by any condition. */
export const matchesFilters = (values: Readonly<Record<string, unknown>>, filters: ComplexFilters): boolean =>
  filters.every((node) =>
    node._tag === "Or" ? node.conditions.some((c) => matchesCondition(values, c)) : matchesCondition(values, node)
  )
