/**
 * The parser of the `complex_filters` language of list queries (the tree it builds and the
 * operator tables: filter-condition.ts; the writer back to a query: filter-query-writer.ts; this
 * module re-exports both, so it stays the one import for the whole language).
 *
 * A filter is a list of nodes that must all hold; a node is a condition
 * `{ property, operator, value }` or one level of `{ or: [conditions] }`. It arrives either as a
 * JSON string (`complex_filters=[{...}]`) or in bracket notation
 * (`complex_filters[0][property]=amount&complex_filters[0][operator]=gt&complex_filters[0][value]=100`)
 * whose values are strings and are coerced to the property's type. Both parse to the same
 * validated AST; anything malformed is a ValidationFailed with Laravel's messages under the dot
 * path of the offending input (`complex_filters.1.operator`, `complex_filters.2.or.0.property`).
 *
 * Validation is written out by hand rather than as a Schema: every failing key must carry its own
 * Laravel message, all failures are reported together, and the rules depend on the property the
 * condition names.
 */
import { DateTime, Effect, Option } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import { ValidationFailed } from "../errors.ts"
import { parseDateInput } from "../wire/timestamp.ts"
import {
  COMPLEX_FILTERS_KEY,
  type ComplexFilters,
  type Condition,
  LINK_FILTERS,
  FILTER_OPERATORS,
  type FilterNode,
  type FilterOperator,
  type FilterScalar,
  type FilterValueType,
  type ListOperator,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_LIST_LENGTH,
  operatorsFor,
  type PresenceOperator
} from "./filter-condition.ts"
import { type FilterableProperty, TIMESTAMP_FILTER_PROPERTIES } from "./property-type.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { droppedTooDeep, type ListQueryInput, MAX_QUERY_NESTING, nestsDeeperThan } from "./list-query-input.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { isStorableText, storableTextMessage } from "../validation/storable-text.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"

export * from "./filter-condition.ts"
export * from "./filter-query-writer.ts"

const isFilterOperator = (s: string): s is FilterOperator => (FILTER_OPERATORS as ReadonlyArray<string>).includes(s)
const isListOperator = (op: FilterOperator): op is ListOperator => op === "in" || op === "not_in"
const isPresenceOperator = (op: FilterOperator): op is PresenceOperator => op === "is_empty" || op === "is_not_empty"

// ---------------------------------------------------------------------------------------------
// Value coercion (shared with the evaluator)
// ---------------------------------------------------------------------------------------------

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/
const RECORD_ID = /^[0-9a-f]{24}$/
const DAY_MS = 86_400_000

/** A finite number from a number or a decimal string (`"100"`, `"-1.5"`, `"2e3"`); -0 becomes 0. */
export const coerceNumber = (raw: unknown): number | undefined => {
  const n = typeof raw === "number" ? raw : typeof raw === "string" && NUMERIC.test(raw.trim()) ? Number(raw.trim()) : NaN
  return Number.isFinite(n) ? n + 0 : undefined
}

/** true/false, 1/0, or the strings "true", "false", "1", "0". */
export const coerceBoolean = (raw: unknown): boolean | undefined => {
  if (typeof raw === "boolean") return raw
  if (raw === 1 || raw === "1" || raw === "true") return true
  if (raw === 0 || raw === "0" || raw === "false") return false
  return undefined
}

/**
 * An instant from any date input (an ISO 8601 string, epoch milliseconds as a number or a string
 * of digits, the `{ $date: { $numberLong } }` object) or a DateTime. For `date` properties the instant is
 * truncated to its UTC day, so date comparisons are by calendar day.
 */
export const coerceInstant = (raw: unknown, type: "date" | "datetime"): DateTime.Utc | undefined => {
  let instant: DateTime.Utc | undefined
  if (DateTime.isDateTime(raw)) instant = DateTime.toUtc(raw)
  else if (typeof raw === "string" && /^-?\d+$/.test(raw.trim())) {
    instant = Option.getOrUndefined(parseDateInput(Number(raw.trim())))
  } else instant = Option.getOrUndefined(parseDateInput(raw))
  if (instant === undefined || type === "datetime") return instant
  return DateTime.makeUnsafe(Math.floor(DateTime.toEpochMillis(instant) / DAY_MS) * DAY_MS)
}

type Coercion = { readonly ok: true; readonly value: FilterScalar } | {
  readonly ok: false
  readonly message: (key: string) => string
}

const ok = (value: FilterScalar): Coercion => ({ ok: true, value })
const no = (message: (key: string) => string): Coercion => ({ ok: false, message })

/**
 * One value coerced to a filter type, or the message for its key. A text that cannot be stored
 * (U+0000, a lone surrogate: JSON can spell both) is refused whatever the type, as it would be in a
 * body: no statement is ever written with it.
 */
const coerceScalar = (type: FilterValueType, raw: unknown, options: ReadonlyArray<string> | undefined): Coercion => {
  if (typeof raw === "string" && !isStorableText(raw)) return no(storableTextMessage)
  switch (type) {
    case "number": {
      const n = coerceNumber(raw)
      return n === undefined ? no(LaravelMessage.numeric) : ok(n)
    }
    case "boolean": {
      const b = coerceBoolean(raw)
      return b === undefined ? no(LaravelMessage.boolean) : ok(b)
    }
    case "date":
    case "datetime": {
      const d = coerceInstant(raw, type)
      return d === undefined ? no(LaravelMessage.date) : ok(d)
    }
    case "single_select":
    case "multi_select":
      return typeof raw === "string" && (options === undefined || options.includes(raw))
        ? ok(raw)
        : no(LaravelMessage.selectedInvalid)
    case "record_ids":
      return typeof raw === "string" && RECORD_ID.test(raw) ? ok(raw) : no(LaravelMessage.regex)
    default:
      return typeof raw === "string" ? ok(raw) : no(LaravelMessage.string)
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/** Options of `parseComplexFilters` and `validateComplexFilters`. */
export interface ParseFilterOptions {
  /** The kind being listed: it enables the kind's link filters (`LINK_FILTERS`). */
  readonly kind?: ObjectKind | undefined
}

/** What the input holds: a JSON text to decode, or the list's parameters (bracket notation already nested). */
export type ComplexFiltersInput = string | ListQueryInput

/** Laravel's `required`: null, a blank string or an empty array is no value. */
const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === "string" && laravelTrim(v) === "") || (Array.isArray(v) && v.length === 0)

const isObjectLike = (v: unknown): v is object => typeof v === "object" && v !== null

/** An own property only (input objects never lend us their prototype). */
const own = (o: object, key: string): unknown => Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined

interface Context {
  readonly errors: Record<string, Array<string>>
  readonly properties: ReadonlyMap<string, { readonly type: FilterValueType; readonly options?: ReadonlyArray<string> | undefined }>
}

const fail = (ctx: Context, key: string, message: string): undefined => {
  ;(ctx.errors[key] ??= []).push(message)
  return undefined
}

/** A value list (`in`, `not_in`, `between`) with each element coerced under `key.<i>`. */
const parseValueList = (
  ctx: Context,
  key: string,
  raw: unknown,
  type: FilterValueType,
  options: ReadonlyArray<string> | undefined,
  length: { readonly max?: number; readonly exactly?: number }
): ReadonlyArray<FilterScalar> | undefined => {
  if (isBlank(raw)) return fail(ctx, key, LaravelMessage.required(key))
  if (!Array.isArray(raw)) return fail(ctx, key, LaravelMessage.list(key))
  if (length.max !== undefined && raw.length > length.max) return fail(ctx, key, LaravelMessage.maxArray(key, length.max))
  if (length.exactly !== undefined && raw.length !== length.exactly) {
    return fail(ctx, key, LaravelMessage.sizeArray(key, length.exactly))
  }
  const values: Array<FilterScalar> = []
  let valid = true
  raw.forEach((element, i) => {
    const elementKey = `${key}.${i}`
    if (isBlank(element)) {
      valid = false
      return fail(ctx, elementKey, LaravelMessage.required(elementKey))
    }
    const coerced = coerceScalar(type, element, options)
    if (coerced.ok) values.push(coerced.value)
    else {
      valid = false
      fail(ctx, elementKey, coerced.message(elementKey))
    }
  })
  return valid ? values : undefined
}

const parseCondition = (ctx: Context, raw: unknown, path: string, nested: boolean): Condition | undefined => {
  if (!isObjectLike(raw)) return fail(ctx, path, LaravelMessage.array(path))
  if (nested && !isBlank(own(raw, "or"))) return fail(ctx, `${path}.or`, LaravelMessage.prohibited(`${path}.or`))

  const propertyKey = `${path}.property`
  const operatorKey = `${path}.operator`
  const valueKey = `${path}.value`
  const property = own(raw, "property")
  const operator = own(raw, "operator")
  const value = own(raw, "value")

  const definition = typeof property === "string" ? ctx.properties.get(property) : undefined
  if (isBlank(property)) fail(ctx, propertyKey, LaravelMessage.required(propertyKey))
  else if (typeof property !== "string") fail(ctx, propertyKey, LaravelMessage.string(propertyKey))
  else if (definition === undefined) fail(ctx, propertyKey, LaravelMessage.selectedInvalid(propertyKey))

  let op: FilterOperator | undefined
  if (isBlank(operator)) fail(ctx, operatorKey, LaravelMessage.required(operatorKey))
  else if (typeof operator !== "string") fail(ctx, operatorKey, LaravelMessage.string(operatorKey))
  else if (!isFilterOperator(operator) || (definition !== undefined && !operatorsFor(definition.type).includes(operator))) {
    fail(ctx, operatorKey, LaravelMessage.selectedInvalid(operatorKey))
  } else op = operator

  // The value's rules depend on both; without them there is nothing more to check.
  if (definition === undefined || op === undefined) return undefined
  const name = property as string
  const { options, type } = definition
  const base = { _tag: "Condition", property: name, type } as const

  if (isPresenceOperator(op)) {
    return isBlank(value) ? { ...base, operator: op } : fail(ctx, valueKey, LaravelMessage.prohibited(valueKey))
  }
  if (isListOperator(op)) {
    const values = parseValueList(ctx, valueKey, value, type, options, { max: MAX_FILTER_LIST_LENGTH })
    return values === undefined ? undefined : { ...base, operator: op, value: values }
  }
  if (op === "between") {
    const values = parseValueList(ctx, valueKey, value, type, options, { exactly: 2 })
    return values === undefined ? undefined : { ...base, operator: op, value: [values[0]!, values[1]!] }
  }
  if (isBlank(value)) return fail(ctx, valueKey, LaravelMessage.required(valueKey))
  // A list where one value is expected; an object only makes sense as a `$date` date.
  const coerced = Array.isArray(value) || (isObjectLike(value) && type !== "date" && type !== "datetime")
    ? coerceScalar(type, undefined, options)
    : coerceScalar(type, value, options)
  return coerced.ok ? { ...base, operator: op, value: coerced.value } : fail(ctx, valueKey, coerced.message(valueKey))
}

const parseNode = (ctx: Context, raw: unknown, path: string): FilterNode | undefined => {
  if (!isObjectLike(raw) || own(raw, "or") === undefined || own(raw, "or") === null) {
    return parseCondition(ctx, raw, path, false)
  }
  // An or-group: its conditions, and nothing of a condition beside them.
  for (const key of ["property", "operator", "value"]) {
    if (!isBlank(own(raw, key))) fail(ctx, `${path}.${key}`, LaravelMessage.prohibited(`${path}.${key}`))
  }
  const orKey = `${path}.or`
  const or = own(raw, "or")
  if (isBlank(or)) return fail(ctx, orKey, LaravelMessage.required(orKey))
  if (!Array.isArray(or)) return fail(ctx, orKey, LaravelMessage.list(orKey))
  const conditions = or.map((child, j) => parseCondition(ctx, child, `${orKey}.${j}`, true))
  // Any failure fails the whole filter; the node only matters when all is well.
  return { _tag: "Or", conditions: conditions as ReadonlyArray<Condition> }
}

/** Conditions in a raw list, those inside or-groups counted one by one. */
const countConditions = (list: ReadonlyArray<unknown>): number =>
  list.reduce<number>((n, node) => {
    const or = isObjectLike(node) ? own(node, "or") : undefined
    return n + (Array.isArray(or) ? or.length : 1)
  }, 0)

/** The 422 of a filter nested deeper than a list's parameter may be (`MAX_QUERY_NESTING`). */
const nestedTooDeep = (): ValidationFailed =>
  new ValidationFailed({
    errors: { [COMPLEX_FILTERS_KEY]: [LaravelMessageMore.maxDepth(COMPLEX_FILTERS_KEY, MAX_QUERY_NESTING)] }
  })

/**
 * Validates an already decoded filter list (from JSON or from bracket notation) against the
 * kind's properties. `created_at` and `updated_at` (datetime) are always filterable; with
 * `kind`, so are the kind's link filters (`LINK_FILTERS`: `in` only, 24-hex record ids). A list nested deeper than
 * `MAX_QUERY_NESTING` levels is refused first, as the bracket notation's dropped names are, however
 * it arrived (JSON has no depth limit of its own).
 */
export const validateComplexFilters = (
  raw: unknown,
  properties: ReadonlyArray<FilterableProperty>,
  options: ParseFilterOptions = {}
): Effect.Effect<ComplexFilters, ValidationFailed> =>
  Effect.suspend(() => {
    const key = COMPLEX_FILTERS_KEY
    if (raw === undefined || raw === null) return Effect.succeed([])
    if (nestsDeeperThan(raw, MAX_QUERY_NESTING)) return Effect.fail(nestedTooDeep())
    if (!Array.isArray(raw)) return Effect.fail(new ValidationFailed({ errors: { [key]: [LaravelMessage.list(key)] } }))
    if (countConditions(raw) > MAX_FILTER_CONDITIONS) {
      return Effect.fail(
        new ValidationFailed({
          errors: { [key]: [`The complex filters field must not have more than ${MAX_FILTER_CONDITIONS} conditions.`] }
        })
      )
    }
    const known = new Map<string, { readonly type: FilterValueType; readonly options?: ReadonlyArray<string> | undefined }>()
    for (const p of [...TIMESTAMP_FILTER_PROPERTIES, ...properties]) known.set(p.internal_name, p)
    for (const name of options.kind === undefined ? [] : LINK_FILTERS[options.kind]) known.set(name, { type: "record_ids" })
    const ctx: Context = { errors: {}, properties: known }
    const nodes = raw.map((node, i) => parseNode(ctx, node, `${key}.${i}`))
    return Object.keys(ctx.errors).length > 0
      ? Effect.fail(new ValidationFailed({ errors: ctx.errors }))
      : Effect.succeed(nodes as ReadonlyArray<FilterNode>)
  })

/**
 * Parses `complex_filters` into a validated AST. The input is either the parameter's value (a
 * URL-decoded JSON string) or the list's parameters, in which case `complex_filters` holds a JSON
 * text or the nested bracket notation. Absent, empty or `null` means no filter. Errors: `complex_filters` (bad JSON, not a list, more than 20 conditions,
 * nested more than 64 levels deep, in JSON or in bracket names) or the dot path of the offending part, with
 * Laravel's messages.
 */
export const parseComplexFilters = (
  input: ComplexFiltersInput,
  properties: ReadonlyArray<FilterableProperty>,
  options: ParseFilterOptions = {}
): Effect.Effect<ComplexFilters, ValidationFailed> =>
  Effect.suspend(() => {
    const key = COMPLEX_FILTERS_KEY
    if (typeof input !== "string" && droppedTooDeep(input, key)) return Effect.fail(nestedTooDeep())
    const raw = typeof input === "string" ? laravelTrim(input) : Object.hasOwn(input, key) ? input[key] ?? undefined : undefined
    if (typeof raw !== "string") return validateComplexFilters(raw, properties, options)
    if (raw === "") return Effect.succeed([])
    let decoded: unknown
    try {
      decoded = JSON.parse(raw)
    } catch {
      return Effect.fail(new ValidationFailed({ errors: { [key]: [LaravelMessage.json(key)] } }))
    }
    return validateComplexFilters(decoded, properties, options)
  })
