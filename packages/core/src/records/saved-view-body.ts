/**
 * The body of a saved view's create or update: `{ name, search, order, direction,
 * complex_filters, columns, shared }`.
 *
 * `search`, `order`, `direction` and `complex_filters` are validated by the list query's own
 * parser (list-query.ts), so a view refuses exactly what `GET /api/{kind}` refuses, with the same
 * messages under the same keys. A text is trimmed and an empty one means none, as in a request.
 * On an update a key left out keeps the view's value.
 */
import { Effect } from "effect"
import { ValidationFailed } from "../errors.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { isStorableText, storableTextMessage } from "../validation/storable-text.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { coerceBoolean, encodeComplexFilters } from "./complex-filter.ts"
import type { ListQueryInput, QueryValue } from "./list-query-input.ts"
import { orderableNames, parseRecordListQuery } from "./list-query.ts"
import type { ObjectKind } from "./object-kind.ts"
import type { PropertyDefinition } from "./property-definition.ts"
import type { SavedView } from "./saved-view.ts"

/** The longest name of a view. */
export const MAX_VIEW_NAME = 255
/** At most this many columns in a view. */
export const MAX_VIEW_COLUMNS = 100

/** A view's body, validated: the view's own values. */
export type SavedViewInput = Pick<SavedView, "name" | "search" | "order" | "direction" | "complex_filters" | "columns" | "shared">

/** A body's text as a request carries it: trimmed, an empty one null; anything else as it came. */
const cleaned = (value: unknown): unknown => {
  if (typeof value !== "string") return value
  const trimmed = laravelTrim(value)
  return trimmed === "" ? null : trimmed
}

const LIST_KEYS = ["search", "order", "direction", "complex_filters"] as const

/**
 * Validates a view's body against the kind's properties; `current` is the view being updated
 * (its values stand in for the keys the body leaves out). Every bad key is reported at once.
 */
export const validateSavedViewBody = (
  kind: ObjectKind,
  body: unknown,
  custom: ReadonlyArray<PropertyDefinition>,
  current: SavedView | undefined
): Effect.Effect<SavedViewInput, ValidationFailed> =>
  Effect.gen(function*() {
    const given = typeof body === "object" && body !== null && !Array.isArray(body) ? body as Record<string, unknown> : {}
    const has = (key: string) => Object.hasOwn(given, key)
    const errors: Record<string, ReadonlyArray<string>> = {}

    let name = current?.name ?? ""
    const rawName = has("name") ? cleaned(given.name) : current === undefined ? null : name
    if (rawName === null || rawName === undefined) errors.name = [LaravelMessage.required("name")]
    else if (typeof rawName !== "string") errors.name = [LaravelMessage.string("name")]
    else if (!isStorableText(rawName)) errors.name = [storableTextMessage("name")]
    else if (rawName.length > MAX_VIEW_NAME) errors.name = [LaravelMessageMore.maxString("name", MAX_VIEW_NAME)]
    else name = rawName

    const stored: ListQueryInput = current === undefined ? {} : {
      search: current.search,
      order: current.order,
      direction: current.direction,
      complex_filters: current.complex_filters.length === 0 ? null : JSON.stringify(current.complex_filters)
    }
    const query: Record<string, QueryValue | undefined> = {}
    for (const key of LIST_KEYS) query[key] = has(key) ? cleaned(given[key]) as QueryValue : stored[key]
    if (typeof query.search === "string" && !isStorableText(query.search)) errors.search = [storableTextMessage("search")]
    const params = yield* Effect.catchTag(parseRecordListQuery(kind, query, custom), "ValidationFailed", (refused) => {
      Object.assign(errors, refused.errors)
      return Effect.succeed(undefined)
    })

    let columns = current?.columns ?? []
    if (has("columns") && given.columns !== null) {
      const raw = given.columns
      if (!Array.isArray(raw)) errors.columns = [LaravelMessage.array("columns")]
      else if (raw.length > MAX_VIEW_COLUMNS) errors.columns = [LaravelMessage.maxArray("columns", MAX_VIEW_COLUMNS)]
      else {
        const names = orderableNames(kind, custom)
        raw.forEach((column, i) => {
          const key = `columns.${i}`
          if (typeof column !== "string") errors[key] = [LaravelMessage.string(key)]
          else if (!names.has(column)) errors[key] = [LaravelMessage.selectedInvalid(key)]
          else if (raw.indexOf(column) !== i) errors[key] = [LaravelMessageMore.distinct(key)]
        })
        columns = raw as ReadonlyArray<string>
      }
    } else if (has("columns")) columns = []

    let shared = current?.shared ?? false
    if (has("shared") && given.shared !== null) {
      const value = coerceBoolean(given.shared)
      if (value === undefined) errors.shared = [LaravelMessage.boolean("shared")]
      else shared = value
    }

    if (Object.keys(errors).length > 0 || params === undefined) return yield* new ValidationFailed({ errors })
    return {
      name,
      search: params.search ?? null,
      order: query.order === null || query.order === undefined ? null : params.order,
      direction: query.direction === null || query.direction === undefined ? null : params.direction,
      complex_filters: encodeComplexFilters(params.filters),
      columns,
      shared
    }
  })
