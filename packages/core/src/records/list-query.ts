/**
 * The query of `GET /api/{kind}`: page, per_page, search, order, direction and
 * complex_filters, as the edge parsed them (trimmed strings, empty means absent), validated
 * together against the kind's properties, so one 422 lists every bad key at once.
 */
import { Effect } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import { ValidationFailed } from "../errors.ts"
import { definitionsOf, filterablePropertiesOf, PROPERTY_SYNONYMS } from "./builtin-properties.ts"
import { type ComplexFilters, parseComplexFilters } from "./complex-filter.ts"
import { DEFAULT_PAGE, DEFAULT_PER_PAGE, parsePageParams } from "./pagination.ts"
import type { PropertyDefinition } from "./property-definition.ts"
import type { ListQueryInput } from "./list-query-input.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"

/** The directions a list may be ordered in. */
export const ORDER_DIRECTIONS = ["asc", "desc"] as const
/** Ascending or descending. */
export type OrderDirection = typeof ORDER_DIRECTIONS[number]

/** What a list asks for, validated against the kind's properties. */
export interface RecordListParams {
  /** The page number, from 1. */
  readonly page: number
  /** The page size, from 1 to 100. */
  readonly perPage: number
  /**
   * A non-blank text to look for, or none: a record matches when any of the kind's search
   * properties (`SEARCH_PROPERTIES`) contains it, ignoring case.
   */
  readonly search: string | undefined
  /** The internal_name to order by (a synonym resolved): a property of the kind, created_at or updated_at. */
  readonly order: string
  /** The order's direction. */
  readonly direction: OrderDirection
  /** The validated `complex_filters` (empty: no filter). */
  readonly filters: ComplexFilters
}

/** What a list is ordered by when the query names nothing. */
export const DEFAULT_ORDER = "created_at"
/** The direction of a list's order when the query names none: newest first. */
export const DEFAULT_DIRECTION: OrderDirection = "desc"

/** The names a list may order by (and a saved view show as columns): every property of the kind (derived ones too) and the timestamps. */
export const orderableNames = (kind: ObjectKind, custom: ReadonlyArray<PropertyDefinition>): ReadonlySet<string> =>
  new Set([...definitionsOf(kind, custom).map((d) => d.internal_name), "created_at", "updated_at"])

/**
 * Validates a list query. Failures of every key are gathered into one ValidationFailed, keyed
 * `page`, `per_page`, `search`, `order`, `direction` and `complex_filters[.N...]`.
 */
export const parseRecordListQuery = (
  kind: ObjectKind,
  query: ListQueryInput,
  custom: ReadonlyArray<PropertyDefinition>
): Effect.Effect<RecordListParams, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Record<string, ReadonlyArray<string>> = {}
    const orFallback = <A>(effect: Effect.Effect<A, ValidationFailed>, fallback: A) =>
      Effect.catchTag(effect, "ValidationFailed", (e) => {
        Object.assign(errors, e.errors)
        return Effect.succeed(fallback)
      })
    const { page, perPage } = yield* orFallback(parsePageParams(query), { page: DEFAULT_PAGE, perPage: DEFAULT_PER_PAGE })
    const param = (name: string) => Object.hasOwn(query, name) ? query[name] : undefined

    const rawSearch = param("search")
    let search: string | undefined
    if (rawSearch !== undefined && rawSearch !== null) {
      if (typeof rawSearch === "string") search = rawSearch
      else errors.search = [LaravelMessage.string("search")]
    }

    const rawOrder = param("order")
    let order = DEFAULT_ORDER
    if (rawOrder !== undefined && rawOrder !== null) {
      const name = typeof rawOrder === "string" ? (PROPERTY_SYNONYMS[kind][rawOrder] ?? rawOrder) : undefined
      if (name !== undefined && orderableNames(kind, custom).has(name)) order = name
      else errors.order = [LaravelMessage.selectedInvalid("order")]
    }

    const rawDirection = param("direction")
    let direction: OrderDirection = DEFAULT_DIRECTION
    if (rawDirection !== undefined && rawDirection !== null) {
      const lowered = typeof rawDirection === "string" ? rawDirection.toLowerCase() : undefined
      if (lowered === "asc" || lowered === "desc") direction = lowered
      else errors.direction = [LaravelMessage.selectedInvalid("direction")]
    }

    const filters = yield* orFallback(
      parseComplexFilters(query, filterablePropertiesOf(kind, custom), { kind }),
      [] as ComplexFilters
    )
    if (Object.keys(errors).length > 0) return yield* new ValidationFailed({ errors })
    return { page, perPage, search, order, direction, filters }
  })
