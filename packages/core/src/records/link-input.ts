/**
 * The bodies of the link endpoints: `{ <key>: string[] }` to attach, `{ <key>: string }` to detach,
 * validated like Laravel's `required|array` / `required|string` plus `exists` in the account: an id
 * the account has no record of the kind with (another account's included) is a 422 on its key
 * (`contact_ids.1`, `deal_id`), never a 404.
 */
import { Effect } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import { ValidationFailed } from "../errors.ts"
import { cleanInput, ErrorBag, isBlankInput, ownValue } from "./body-input.ts"
import { MAX_FILTER_LIST_LENGTH } from "./complex-filter.ts"
import { RecordRepository } from "./record-repository.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"

/** How many ids one attach call may carry (the same bound as a filter's `in` list). */
export const MAX_ATTACH_IDS: typeof MAX_FILTER_LIST_LENGTH = MAX_FILTER_LIST_LENGTH

const objectBody = (input: unknown): object =>
  typeof input === "object" && input !== null && !Array.isArray(input) ? input : {}

/** Of the ids, the ones the account has no record of the kind with. */
const missingOf = (accountId: number, kind: ObjectKind, ids: ReadonlyArray<string>) =>
  Effect.map(
    RecordRepository.use((repo) => repo.existing(accountId, kind, ids.filter((id) => /^[0-9a-f]{24}$/.test(id)))),
    (found) => {
      const present = new Set(found)
      return ids.map((id) => !present.has(id))
    }
  )

/**
 * `<key>: required|array|max:100`, `<key>.*: string|exists`: the distinct ids, in order. Fails
 * with ValidationFailed on `<key>` or `<key>.<index>` (an id the account has no record of the
 * kind with is "The selected ... is invalid.").
 */
export const validateIdList = (
  accountId: number,
  kind: ObjectKind,
  key: string,
  input: unknown
): Effect.Effect<Array<string>, ValidationFailed, RecordRepository> =>
  Effect.gen(function*() {
    const value = ownValue(objectBody(cleanInput(input)), key)
    const fail = (message: string) => Effect.fail(new ValidationFailed({ errors: { [key]: [message] } }))
    if (isBlankInput(value)) return yield* fail(LaravelMessage.required(key))
    if (!Array.isArray(value)) return yield* fail(LaravelMessage.array(key))
    if (value.length > MAX_ATTACH_IDS) return yield* fail(LaravelMessage.maxArray(key, MAX_ATTACH_IDS))
    const errors = new ErrorBag()
    const strings = value.map((item, i) => {
      if (typeof item === "string") return item
      errors.add(`${key}.${i}`, item === null ? LaravelMessage.required(`${key}.${i}`) : LaravelMessage.string(`${key}.${i}`))
      return ""
    })
    const missing = yield* missingOf(accountId, kind, strings)
    strings.forEach((id, i) => {
      if (id !== "" && missing[i]) errors.add(`${key}.${i}`, LaravelMessage.selectedInvalid(`${key}.${i}`))
    })
    if (!errors.isEmpty) return yield* errors.toFailure()
    return [...new Set(strings)]
  })

/** `<key>: required|string|exists`: the id. Fails with ValidationFailed on `<key>`. */
export const validateId = (
  accountId: number,
  kind: ObjectKind,
  key: string,
  input: unknown
): Effect.Effect<string, ValidationFailed, RecordRepository> =>
  Effect.gen(function*() {
    const value = ownValue(objectBody(cleanInput(input)), key)
    const fail = (message: string) => Effect.fail(new ValidationFailed({ errors: { [key]: [message] } }))
    if (value === undefined || value === null) return yield* fail(LaravelMessage.required(key))
    if (typeof value !== "string") return yield* fail(LaravelMessage.string(key))
    const [missing] = yield* missingOf(accountId, kind, [value])
    if (missing) return yield* fail(LaravelMessage.selectedInvalid(key))
    return value
  })

/** Whether the body names `key` at all (absent and null are not naming it). */
export const bodyHas = (input: unknown, key: string): boolean => {
  const value = ownValue(objectBody(cleanInput(input)), key)
  return value !== undefined && value !== null
}
