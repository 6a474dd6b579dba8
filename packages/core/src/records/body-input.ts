/**
 * Request bodies as a Laravel application validates them, and the error bag the records
 * validators fill.
 *
 * Laravel's global middleware cleans every input, JSON bodies included, before validation:
 * TrimStrings trims each string and ConvertEmptyStringsToNull turns "" into null, at every depth.
 * The records validators do the same, so `"  Acme "` is stored as `"Acme"` and a blank string
 * clears a value like null does.
 */
import { Predicate } from "effect"
import { ValidationFailed } from "../errors.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"

/**
 * How deep cleaning goes. Record and definition bodies nest at most three levels (`enum.0.en`,
 * `{ $date: { $numberLong } }`); anything deeper is left as it is (and fails validation as a
 * wrong type), so a pathologically nested body cannot exhaust the stack.
 */
export const MAX_CLEAN_DEPTH = 8

/** TrimStrings then ConvertEmptyStringsToNull, at every depth up to `depth` (objects and arrays copied). */
export const cleanInput = (input: unknown, depth: number = MAX_CLEAN_DEPTH): unknown => {
  if (typeof input === "string") {
    const trimmed = laravelTrim(input)
    return trimmed === "" ? null : trimmed
  }
  if (depth <= 0) return input
  if (Array.isArray(input)) return input.map((value) => cleanInput(value, depth - 1))
  if (Predicate.isObject(input)) {
    return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, cleanInput(value, depth - 1)]))
  }
  return input
}

/** An own property only: input objects never lend us their prototype. */
export const ownValue = (input: object, key: string): unknown =>
  Object.hasOwn(input, key) ? (input as Record<string, unknown>)[key] : undefined

/** Laravel's "no value" for `required`: absent, null, a blank string, an empty array. */
export const isBlankInput = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === "string" && laravelTrim(value) === "") ||
  (Array.isArray(value) && value.length === 0)

/** The characters of a string as PHP's mb_strlen counts them (code points). */
export const codePointLength = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

/**
 * Messages by dot key, in the order they were found (the first is the 422's `message`). Keys come
 * from input (`__proto__` included), so they are held in a Map until the failure is built.
 */
export class ErrorBag {
  readonly #errors = new Map<string, Array<string>>()

  /** Records a message under a key (a message already there is not repeated). */
  add(key: string, message: string): void {
    const list = this.#errors.get(key)
    if (list === undefined) this.#errors.set(key, [message])
    else if (!list.includes(message)) list.push(message)
  }

  /** Whether the key has a message. */
  has(key: string): boolean {
    return this.#errors.has(key)
  }

  /** Whether no message was recorded: the body is valid. */
  get isEmpty(): boolean {
    return this.#errors.size === 0
  }

  /** The errors as a plain record (Object.fromEntries defines even `__proto__` as an own key). */
  get errors(): Record<string, ReadonlyArray<string>> {
    return Object.fromEntries(this.#errors)
  }

  /** The messages as the 422 failure. */
  toFailure(): ValidationFailed {
    return new ValidationFailed({ errors: this.errors })
  }
}
