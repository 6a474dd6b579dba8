/**
 * Lists: the page parameters (`page`, `per_page`, read as Laravel reads them) and the page a
 * use-case answers (`Page`). The body the HTTP API writes for a page, Laravel's paginator, is
 * built at the edge (`@wasl/http`, paginator.ts).
 */
import { Effect } from "effect"
import { ValidationFailed } from "../errors.ts"
import type { ListQueryInput, QueryValue } from "./list-query-input.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"

/** The page a list shows when the query names none. */
export const DEFAULT_PAGE = 1
/** The page size of a list when the query names none. */
export const DEFAULT_PER_PAGE = 15
/** The largest `per_page` a list accepts. */
export const MAX_PER_PAGE = 100
/** Which page of a list to show, and how many items a page holds. */
export interface PageParams {
  /** The page number, from 1. */
  readonly page: number
  /** The page size, from 1 to `MAX_PER_PAGE`. */
  readonly perPage: number
}

/** A page of a list as a use-case answers it: its items, the exact total, and where it lies. */
export interface Page<T> extends PageParams {
  /** The records of this page (at most perPage of them; `page` may lie past the last page). */
  readonly items: ReadonlyArray<T>
  /** The number of records over all pages. */
  readonly total: number
}

/** The number of records before the page: the SQL OFFSET. */
export const pageOffset = (params: PageParams): number => (params.page - 1) * params.perPage

/** `max(ceil(total / perPage), 1)`. */
export const lastPageOf = (total: number, perPage: number): number => Math.max(Math.ceil(total / perPage), 1)

// ---------------------------------------------------------------------------------------------
// Page parameters
// ---------------------------------------------------------------------------------------------

/** PHP's `is_numeric` on a string. */
const isPhpNumeric = (s: string) => /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(s)

/** `filter_var($value, FILTER_VALIDATE_INT) !== false` on a (trimmed) string. */
const isPhpInt = (s: string) => {
  const m = /^[+-]?(0|[1-9][0-9]*)$/.exec(s)
  if (m === null) return false
  const n = BigInt(s)
  return n <= 9223372036854775807n && n >= -9223372036854775808n
}

/**
 * Laravel's size of a value under a rule set containing `integer`: the number for a numeric
 * string, the count of an array (a list's length, an object's keys), else the string's length.
 */
const sizeOf = (value: NonNullable<QueryValue>): number =>
  typeof value !== "string"
    ? Object.keys(value).length
    : isPhpNumeric(value) ? Number(value) : [...value].length

/**
 * Runs `nullable|integer|min:1|max:<max>` the way Laravel does (every rule, no bail) and returns
 * the messages of the failing ones.
 */
const integerRule = (key: string, value: NonNullable<QueryValue>, max: number): Array<string> => {
  const messages: Array<string> = []
  if (typeof value !== "string" || !isPhpInt(value)) messages.push(LaravelMessage.integer(key))
  const size = sizeOf(value)
  if (!(size >= 1)) messages.push(LaravelMessage.minNumeric(key, 1))
  if (!(size <= max)) messages.push(LaravelMessage.maxNumeric(key, max))
  return messages
}

/**
 * `page` and `per_page` of a list query: `page` an integer ≥ 1, default 1;
 * `per_page` an integer from 1 to 100, default 15. The query arrives as Laravel's middleware
 * leaves it (trimmed, empty values null), so an empty or blank value means the default (the rules
 * are `nullable`). Failures carry Laravel's messages under `page` / `per_page`,
 * every failing rule of each, e.g. `per_page=0.5` gives both "must be an integer" and "must be at
 * least 1". `page` is further bounded by Number.MAX_SAFE_INTEGER so that it stays exact.
 */
export const parsePageParams = (query: ListQueryInput): Effect.Effect<PageParams, ValidationFailed> =>
  Effect.suspend(() => {
    const errors: Record<string, Array<string>> = {}
    const read = (key: string, fallback: number, max: number): number => {
      const value = Object.hasOwn(query, key) ? query[key] : undefined
      if (value === undefined || value === null) return fallback
      const messages = integerRule(key, value, max)
      if (messages.length > 0) {
        errors[key] = messages
        return fallback
      }
      return Number(value as string)
    }
    const page = read("page", DEFAULT_PAGE, Number.MAX_SAFE_INTEGER)
    const perPage = read("per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE)
    return Object.keys(errors).length > 0
      ? Effect.fail(new ValidationFailed({ errors }))
      : Effect.succeed({ page, perPage })
  })
