/**
 * The body of a records batch, `{ inputs: [...] }`, as the batch endpoints validate it before
 * any input is looked at: 1 to {@link MAX_BATCH_INPUTS} inputs, each an object. The fields of
 * an input (`id`, `id_property`, `properties`) are read by the batch use-cases with the helpers
 * here, each failure keyed by the input's dot path (`inputs.3.id`).
 */
import { Effect, Predicate } from "effect"
import { ValidationFailed } from "../errors.ts"
import { cleanInput, ErrorBag, isBlankInput, ownValue } from "./body-input.ts"
import { displayAttribute, LaravelMessage } from "../validation/validation-messages.ts"

/** The most inputs one batch takes; more is a 422 on `inputs`. */
export const MAX_BATCH_INPUTS = 100

/** The key of a batch body's list of inputs. */
export const BATCH_INPUTS_KEY = "inputs"

/** One input of a batch: a JSON object whose fields the batch's operation reads. */
export type BatchInput = Readonly<Record<string, unknown>>

/** The message of an upsert whose `id` is the value of more than one record's `id_property`. */
export const ambiguousUpsertKey = (key: string): string =>
  `The ${displayAttribute(key)} matches more than one record; it must match at most one.`

const isObject = (value: unknown): value is BatchInput => Predicate.isObject(value) && !Array.isArray(value)

/**
 * The inputs of a batch body: `inputs` must be a list of 1 to {@link MAX_BATCH_INPUTS} objects.
 * Every bad input is reported at once (`inputs.N`).
 */
export const parseBatchInputs = (body: unknown): Effect.Effect<ReadonlyArray<BatchInput>, ValidationFailed> =>
  Effect.suspend(() => {
    const key = BATCH_INPUTS_KEY
    const fail = (message: string) => Effect.fail(new ValidationFailed({ errors: { [key]: [message] } }))
    const inputs = isObject(body) ? ownValue(body, key) : undefined
    if (isBlankInput(inputs)) return fail(LaravelMessage.required(key))
    if (!Array.isArray(inputs)) return fail(LaravelMessage.array(key))
    if (inputs.length > MAX_BATCH_INPUTS) return fail(LaravelMessage.maxArray(key, MAX_BATCH_INPUTS))
    const bag = new ErrorBag()
    inputs.forEach((input, i) => {
      if (!isObject(input)) bag.add(`${key}.${i}`, LaravelMessage.array(`${key}.${i}`))
    })
    return bag.isEmpty ? Effect.succeed(inputs as ReadonlyArray<BatchInput>) : Effect.fail(bag.toFailure())
  })

/** A failure of one input's own validation, its keys moved under the input's path `at` (`inputs.3`). */
export const underInput = (at: string, failure: ValidationFailed): ValidationFailed =>
  new ValidationFailed({
    errors: Object.fromEntries(Object.entries(failure.errors).map(([key, messages]) => [`${at}.${key}`, messages]))
  })

/** The input's `properties`: the body a single create or update takes, required and an object. */
export const inputProperties = (input: BatchInput, at: string): Effect.Effect<BatchInput, ValidationFailed> => {
  const key = `${at}.properties`
  const properties = ownValue(input, "properties")
  if (properties === undefined || properties === null) {
    return Effect.fail(new ValidationFailed({ errors: { [key]: [LaravelMessage.required(key)] } }))
  }
  return isObject(properties)
    ? Effect.succeed(properties)
    : Effect.fail(new ValidationFailed({ errors: { [key]: [LaravelMessage.array(key)] } }))
}

/**
 * A required text field of an input (`id`, `id_property`), trimmed as Laravel trims it; `fallback`
 * stands in when the input has none (the body's shared `id_property`). Numbers are taken as
 * their text, so an upsert may match a number property.
 */
export const inputText = (
  input: BatchInput,
  name: string,
  at: string,
  fallback?: unknown
): Effect.Effect<string, ValidationFailed> => {
  const key = `${at}.${name}`
  const own = cleanInput(ownValue(input, name))
  const value = own === undefined || own === null ? cleanInput(fallback) : own
  if (value === undefined || value === null) {
    return Effect.fail(new ValidationFailed({ errors: { [key]: [LaravelMessage.required(key)] } }))
  }
  if (typeof value === "number" && Number.isFinite(value)) return Effect.succeed(String(value))
  return typeof value === "string"
    ? Effect.succeed(value)
    : Effect.fail(new ValidationFailed({ errors: { [key]: [LaravelMessage.string(key)] } }))
}
