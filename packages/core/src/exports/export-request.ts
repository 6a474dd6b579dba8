/**
 * The body of `POST /api/{kind}/exports`: the list query of `GET /api/{kind}` as JSON (`search`,
 * `order`, `direction`, `complex_filters`) and the columns (`properties`), validated the way the
 * list validates its query, so the same mistakes get the same 422 messages.
 *
 * Each query key is kept as the text the query string would carry and validated by the list's
 * parser: a string as it is, a number as its decimal text, `complex_filters` given as JSON as its
 * JSON text (which the list also takes). `page` and `per_page` mean nothing here (an export has
 * every page) and are ignored, as are unknown keys.
 */
import { Effect } from "effect"
import type { ObjectKind } from "../records/object-kind.ts"
import { ValidationFailed } from "../errors.ts"
import { definitionsOf } from "../records/builtin-properties.ts"
import { COMPLEX_FILTERS_KEY } from "../records/complex-filter.ts"
import { parseRecordListQuery, type RecordListParams } from "../records/list-query.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { type ListQueryInput, MAX_QUERY_NESTING, NESTED_TOO_DEEP, nestsDeeperThan } from "../records/list-query-input.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import type { ExportQuery } from "./export.ts"

/** The list keys an export takes from its body. */
const QUERY_KEYS = ["search", "order", "direction", COMPLEX_FILTERS_KEY] as const

/** The columns every export has around its properties. */
const ID_COLUMN = "_id"
const TIMESTAMP_COLUMNS = ["created_at", "updated_at"] as const

/** A validated export request. */
export interface ExportRequest {
  /** The list query as text, to keep with the export and parse again when it runs. */
  readonly query: ExportQuery
  /** The CSV columns, in order. */
  readonly columns: ReadonlyArray<string>
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The body's list keys as texts (`texts`, what the export keeps) and as the list's parameters
 * (`input`: cleaned like any input, blank texts null). A value no query string could carry as text
 * (a boolean, an object) is given to the list as an array: the list's parser then refuses it with
 * the message it gives `?key[]=...`. A `complex_filters` nested deeper than the list keeps is not
 * written as text (`JSON.stringify` recurses) but reported to the list as dropped, as the edge
 * reports a bracket name nested too deep, so it gets the list's 422.
 */
const queryOf = (body: Readonly<Record<string, unknown>>): { readonly texts: ExportQuery; readonly input: ListQueryInput } => {
  const texts: Record<string, string> = {}
  const refused: Record<string, ReadonlyArray<null>> = {}
  const tooDeep: Array<string> = []
  for (const key of QUERY_KEYS) {
    const value = body[key]
    if (value === undefined || value === null) continue
    if (typeof value === "string") texts[key] = value
    else if (typeof value === "number" && Number.isFinite(value)) texts[key] = String(value)
    else if (key === COMPLEX_FILTERS_KEY && typeof value === "object") {
      if (nestsDeeperThan(value, MAX_QUERY_NESTING)) tooDeep.push(key)
      else texts[key] = JSON.stringify(value)
    } else refused[key] = [null]
  }
  const dropped = tooDeep.length > 0 ? { [NESTED_TOO_DEEP]: tooDeep } : {}
  return { texts, input: { ...listInputOf(texts), ...refused, ...dropped } }
}

/** A kept query as the list's parameters: texts trimmed, blank ones null (Laravel's middleware). */
const listInputOf = (query: ExportQuery): ListQueryInput =>
  Object.fromEntries(Object.entries(query).map(([key, text]) => {
    const trimmed = laravelTrim(text)
    return [key, trimmed === "" ? null : trimmed]
  }))

/** The columns asked for: `_id`, the properties (default: all of the kind's, built-in then custom), the timestamps. */
const columnsOf = (
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  raw: unknown,
  errors: Record<string, ReadonlyArray<string>>
): ReadonlyArray<string> => {
  const known = definitionsOf(kind, custom).map((d) => d.internal_name)
  const fixed = new Set<string>([ID_COLUMN, ...TIMESTAMP_COLUMNS])
  let chosen: ReadonlyArray<string> = known
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw)) {
      errors.properties = [LaravelMessage.list("properties")]
    } else {
      const names = new Set(known)
      raw.forEach((name: unknown, i) => {
        if (typeof name !== "string" || !(names.has(name) || fixed.has(name))) {
          errors[`properties.${i}`] = [LaravelMessage.selectedInvalid(`properties.${i}`)]
        }
      })
      chosen = raw.filter((name): name is string => typeof name === "string")
    }
  }
  return [...new Set([ID_COLUMN, ...chosen.filter((name) => !fixed.has(name)), ...TIMESTAMP_COLUMNS])]
}

/**
 * Validates an export request of `kind` against its properties (`custom`: the account's custom
 * ones). Every bad key is reported at once: the list's keys with the list's messages,
 * `properties` or `properties.N` for columns that are not properties of the kind.
 */
export const parseExportRequest = (
  kind: ObjectKind,
  body: unknown,
  custom: ReadonlyArray<PropertyDefinition>
): Effect.Effect<ExportRequest, ValidationFailed> =>
  Effect.gen(function*() {
    const fields = isObject(body) ? body : {}
    const errors: Record<string, ReadonlyArray<string>> = {}
    const query = yield* parseListQueryBody(kind, fields, custom, errors)
    const columns = columnsOf(kind, custom, fields.properties, errors)
    if (Object.keys(errors).length > 0) return yield* new ValidationFailed({ errors })
    return { query, columns }
  })

/**
 * The list query of `GET /api/{kind}` given as JSON (`search`, `order`, `direction`,
 * `complex_filters`; other keys ignored), as the texts to keep: validated the way the list
 * validates its query, each mistake added to `errors` with the list's message. What an export and
 * a campaign's audience keep, to run it again later with {@link exportListParams}.
 */
export const parseListQueryBody = (
  kind: ObjectKind,
  body: Readonly<Record<string, unknown>>,
  custom: ReadonlyArray<PropertyDefinition>,
  errors: Record<string, ReadonlyArray<string>>
): Effect.Effect<ExportQuery> =>
  Effect.gen(function*() {
    const { input, texts } = queryOf(body)
    yield* Effect.catchTag(parseRecordListQuery(kind, input, custom), "ValidationFailed", (e) =>
      Effect.sync(() => {
        Object.assign(errors, e.errors)
      }))
    return texts
  })

/** The stored query of an export parsed again against the kind's properties as they are now. */
export const exportListParams = (
  kind: ObjectKind,
  query: ExportQuery,
  custom: ReadonlyArray<PropertyDefinition>
): Effect.Effect<Omit<RecordListParams, "page" | "perPage">, ValidationFailed> =>
  Effect.map(parseRecordListQuery(kind, listInputOf(query), custom), ({ page: _page, perPage: _perPage, ...params }) => params)
