/**
 * URL queries the way PHP and Laravel see them.
 *
 * The list endpoints take bracket notation (`complex_filters[0][property]=amount`) and echo the
 * query back in pagination links "exactly as Laravel writes them". Both depend on how PHP turns
 * the query string into nested arrays (`php_register_variable_ex`, used by `parse_str` and
 * `$_GET`), how Laravel's default middleware cleans it (TrimStrings, ConvertEmptyStringsToNull)
 * and how `http_build_query` writes it back. This module reproduces those three steps, and hands
 * the list use-cases their parameters as the core takes them (`parseListQuery`).
 */
import { type ListQueryInput, MAX_QUERY_NESTING, NESTED_TOO_DEEP, type QueryValue } from "@wasl/core/Records"
import { laravelTrim } from "@wasl/core/Wire"

/**
 * A URL query as the HTTP layer hands it over, already URL-decoded: name/value pairs in their
 * order (e.g. `[...new URLSearchParams(search)]`), or a flat record where a repeated name holds
 * an array (`{ "complex_filters[0][value][]": ["a", "b"] }`). Prefer pairs where order matters
 * (pagination links): a JS record lists integer-like names first.
 */
export type QueryInput =
  | ReadonlyArray<readonly [string, string]>
  | Readonly<Record<string, string | ReadonlyArray<string>>>

/** A PHP array: ordered keys; integer keys are held as their canonical decimal text. */
export interface PhpArray {
  /** The entries in PHP's order. */
  readonly entries: Map<string, PhpValue>
  /** PHP's nNextFreeElement: the key `[]` appends under (undefined: no integer key yet, so 0). */
  nextFree: bigint | undefined
}

/** A query value after PHP parsing: a string, an array, or null once Laravel emptied it. */
export type PhpValue = string | null | PhpArray

const INT64_MAX = 9223372036854775807n
const INT64_MIN = -9223372036854775808n

/**
 * The integer a PHP array key string stands for (`"7"`, `"-3"`), or undefined for keys PHP keeps
 * as strings (`"07"`, `"-0"`, `"+1"`, `"1.0"`, out of 64-bit range).
 */
export const phpIntegerKey = (key: string): bigint | undefined => {
  if (!/^(0|-?[1-9][0-9]{0,19})$/.test(key)) return undefined
  const n = BigInt(key)
  return n > INT64_MAX || n < INT64_MIN ? undefined : n
}

/** A new empty PHP array. */
export const emptyPhpArray = (): PhpArray => ({ entries: new Map(), nextFree: undefined })

/** `$array[$key] = $value`: an existing key keeps its position. */
const phpSet = (array: PhpArray, key: string, value: PhpValue): void => {
  const int = phpIntegerKey(key)
  if (int !== undefined && (array.nextFree === undefined || int >= array.nextFree)) {
    array.nextFree = int < INT64_MAX ? int + 1n : INT64_MAX
  }
  array.entries.set(key, value)
}

/** `$array[] = $value`. */
const phpAppend = (array: PhpArray, value: PhpValue): string => {
  const key = String(array.nextFree ?? 0n)
  phpSet(array, key, value)
  return key
}

/** PHP's max_input_nesting_level: deeper names are dropped. */
export const MAX_NESTING: number = MAX_QUERY_NESTING

/** A query name as PHP reads it: its base name and its bracket indices (undefined for `[]`). */
export interface PhpName {
  /** The name before the first `[`, spaces and dots turned to underscores. */
  readonly base: string
  /** The bracket indices in order, undefined for an append (`[]`). */
  readonly indices: ReadonlyArray<string | undefined>
}

/**
 * A query name split as `php_register_variable_ex` does it (PHP 8), or undefined when PHP ignores
 * it (no base name). Names nested deeper than `MAX_NESTING` are returned whole: PHP drops them.
 */
export const parsePhpName = (rawName: string): PhpName | undefined => {
  // Leading spaces are skipped; the name is not binary safe (it ends at NUL).
  let name = rawName.replace(/^ +/, "")
  const nul = name.indexOf("\0")
  if (nul >= 0) name = name.slice(0, nul)

  // The base name: spaces and dots become underscores, up to the first `[`.
  let base = ""
  let i = 0
  for (; i < name.length; i++) {
    const c = name[i]!
    if (c === "[") break
    base += c === " " || c === "." ? "_" : c
  }
  if (base.length === 0) return undefined

  // The indices: `[key]` or `[]` (append); text after a `]` not followed by `[` is ignored.
  // A `[` without a closing `]` is not an index: at the first level it turns into `_` and the
  // rest joins the base name; deeper, the rest is dropped.
  const indices: Array<string | undefined> = []
  let ip = i
  while (ip < name.length && name[ip] === "[") {
    const start = ip + 1
    let j = start
    if (name[j] === " ") j++
    if (name[j] === "]") {
      indices.push(undefined)
      ip = j + 1
      continue
    }
    const close = name.indexOf("]", j)
    if (close < 0) {
      if (indices.length === 0) base = base + "_" + name.slice(start).replace(/[ .[]/g, "_")
      break
    }
    indices.push(name.slice(start, close))
    ip = close + 1
  }
  return { base, indices }
}

/** One `name=value` pair into `root`, as `php_register_variable_ex` does it (PHP 8). */
const register = (root: PhpArray, rawName: string, value: string): void => {
  const name = parsePhpName(rawName)
  if (name === undefined || name.indices.length > MAX_NESTING) return
  let target = root
  let key: string | undefined = name.base
  for (const index of name.indices) {
    let next: PhpArray
    if (key === undefined) {
      next = emptyPhpArray()
      phpAppend(target, next)
    } else {
      const existing = target.entries.get(key)
      if (existing !== undefined && existing !== null && typeof existing !== "string") {
        next = existing
      } else {
        next = emptyPhpArray()
        phpSet(target, key, next)
      }
    }
    target = next
    key = index
  }
  if (key === undefined) phpAppend(target, value)
  else phpSet(target, key, value)
}

/** The pairs of a query input, in order; a record's array value gives one pair per element. */
export const queryPairs = (input: QueryInput): ReadonlyArray<readonly [string, string]> => {
  if (Array.isArray(input)) return input as ReadonlyArray<readonly [string, string]>
  const pairs: Array<readonly [string, string]> = []
  for (const [name, value] of Object.entries(input as Readonly<Record<string, string | ReadonlyArray<string>>>)) {
    if (typeof value === "string") pairs.push([name, value])
    else for (const v of value) pairs.push([name, v])
  }
  return pairs
}

/** The query as PHP's `$_GET` holds it: bracket names nested, a repeated plain name's last value wins. */
export const parsePhpQuery = (input: QueryInput): PhpArray => {
  const root = emptyPhpArray()
  for (const [name, value] of queryPairs(input)) register(root, name, value)
  return root
}

/** Laravel's TrimStrings keeps these as sent. */
const UNTRIMMED = new Set(["current_password", "password", "password_confirmation"])

/**
 * The query after Laravel's default middleware: strings trimmed (TrimStrings), then empty strings
 * turned into null (ConvertEmptyStringsToNull), at every depth.
 */
export const cleanLikeLaravel = (array: PhpArray, prefix = ""): PhpArray => {
  const out: PhpArray = { entries: new Map(), nextFree: array.nextFree }
  for (const [key, value] of array.entries) {
    const dotted = prefix + key
    if (value === null) out.entries.set(key, null)
    else if (typeof value === "string") {
      const trimmed = UNTRIMMED.has(dotted) ? value : laravelTrim(value)
      out.entries.set(key, trimmed === "" ? null : trimmed)
    } else out.entries.set(key, cleanLikeLaravel(value, dotted + "."))
  }
  return out
}

/** PHP's rawurlencode (RFC 3986): everything but `A-Za-z0-9-_.~` percent-encoded as UTF-8. */
export const rawUrlEncode = (value: string): string =>
  encodeURIComponent(value.toWellFormed()).replace(
    /[!'()*]/g,
    (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()
  )

const buildPairs = (array: PhpArray, prefix: string | undefined, out: Array<string>): void => {
  for (const [key, value] of array.entries) {
    if (value === null) continue
    const name = prefix === undefined ? rawUrlEncode(key) : `${prefix}%5B${rawUrlEncode(key)}%5D`
    if (typeof value === "string") out.push(`${name}=${rawUrlEncode(value)}`)
    else buildPairs(value, name, out)
  }
}

/**
 * Laravel's `Arr::query`: `http_build_query($array, '', '&', PHP_QUERY_RFC3986)`. Nested arrays
 * are written `a%5B0%5D=x`, null values and empty arrays are left out.
 */
export const buildPhpQuery = (array: PhpArray): string => {
  const out: Array<string> = []
  buildPairs(array, undefined, out)
  return out.join("&")
}

/**
 * A PHP array as plain JavaScript: an array when its keys are exactly the integers 0..n-1 (in any
 * order; elements are placed by key), otherwise an object. Strings and nulls stay as they are.
 */
export const phpToJs = (value: PhpValue): unknown => {
  if (value === null || typeof value === "string") return value
  const keys = [...value.entries.keys()]
  const isList = keys.length > 0 && keys.every((k) => {
    const n = phpIntegerKey(k)
    return n !== undefined && n >= 0n && n < BigInt(keys.length)
  })
  if (isList) {
    const list: Array<unknown> = new Array(keys.length)
    for (const [k, v] of value.entries) list[Number(k)] = phpToJs(v)
    return list
  }
  if (keys.length === 0) return []
  // fromEntries defines own properties: a `__proto__` key stays a plain key.
  return Object.fromEntries([...value.entries].map(([k, v]) => [k, phpToJs(v)]))
}

/**
 * The query of a list request as the core's list use-cases take it: PHP's nesting, then Laravel's
 * cleaning, each parameter as plain arrays and objects (`phpToJs`). The names of parameters PHP
 * drops for nesting deeper than `MAX_NESTING` are listed under `NESTED_TOO_DEEP`, so the list can
 * refuse a dropped `complex_filters` instead of answering unfiltered.
 */
export const parseListQuery = (input: QueryInput): ListQueryInput => {
  const cleaned = cleanLikeLaravel(parsePhpQuery(input))
  const params: Record<string, QueryValue> = Object.fromEntries(
    [...cleaned.entries].map(([name, value]) => [name, phpToJs(value) as QueryValue])
  )
  const tooDeep = queryPairs(input).flatMap(([rawName]) => {
    const name = parsePhpName(rawName)
    return name !== undefined && name.indices.length > MAX_NESTING ? [name.base] : []
  })
  return tooDeep.length > 0 ? { ...params, [NESTED_TOO_DEEP]: [...new Set(tooDeep)] } : params
}
