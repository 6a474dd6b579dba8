/**
 * Validation of record bodies: a flat map internal_name → value checked against the
 * kind's definitions (built-in and custom), normalised to the stored form.
 *
 * Body. Strings are trimmed and "" read as null first (Laravel's middleware, body-input.ts). Every
 * failure is reported, one message per key, keys in definition order then body order:
 * - a key that is no property of the kind → "The <key> field is not a <kind> property.";
 * - a read-only property (derived `fullname`, `deal_ids`, `contacts_count`, `deals_count`;
 *   `created_by`; the contact's received-message times) or a record key (`_id`, `account_id`, `created_at`, `updated_at`) →
 *   "The <key> field is prohibited." Like Laravel's `prohibited`, an empty value (null, "", []) is
 *   let through and ignored, so a body may echo `"fullname": null`;
 * - create: a required property (the kind's name property, REQUIRED_ON_CREATE) absent or empty →
 *   "The <key> field is required."; update: the same when it is sent empty (it cannot be cleared);
 * - deal `forcast_amount` is read as `forecast_amount`; sent together they must
 *   agree, else "The forcast amount field must match forecast amount.".
 *
 * `null` (or "", or [] for a multi_select) clears a value: a create leaves it out, an update
 * returns null for it in the patch.
 *
 * Values, by type (the stored form is JSON: strings, finite numbers, booleans, string arrays):
 * - string, textarea: a string of at most 65,535 characters (code points) — one limit for both,
 *   the size of a TEXT column; long prose belongs in notes. Numbers are not strings.
 * - number: a finite number, or a numeric string (`"12.5"`, `"-3"`, `"1e3"`, as Laravel's
 *   `numeric` accepts) stored as the number; -0 is 0.
 * - boolean: true/false, 1/0, "true"/"false", "1"/"0" → true/false.
 * - date: any date input (ISO 8601 string, epoch milliseconds, the `{ $date: { $numberLong } }`
 *   object) → its UTC day, stored `YYYY-MM-DD`.
 * - datetime: the same inputs → the instant, stored as a wire timestamp
 *   (`2026-11-21T17:24:05.123000Z`). Dates and datetimes must fall in the years 0001–9999.
 * - single_select: one option internal_name (exact, case-sensitive).
 * - multi_select: a list of option internal_names; duplicates dropped, first order kept. Errors
 *   of elements are keyed `<key>.<index>`.
 * - email: at most 254 characters, `local@domain` with a dot-atom local part (≤ 64) and a domain
 *   of at least two DNS labels whose last begins with a letter. Kept as written.
 * - phone: an optional leading `+`, digits, and the separators space, `-`, `.`, `(`, `)`; 6 to 20
 *   digits (the rule message recipients follow too). Stored compact: the `+` if given, then the digits
 *   (`+966 50-123 4567` → `+966501234567`), so search and messaging see one form.
 * - url: an absolute `http` or `https` URL with a host, no whitespace, at most 2,048 characters.
 *   Kept as written.
 *
 * Normalisation is idempotent: validating a stored value gives it back unchanged.
 */
import { DateTime, Effect, Option, Predicate, Schema } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { ValidationFailed } from "../errors.ts"
import { formatWireTimestamp, parseDateInput } from "../wire/timestamp.ts"
import { setOwnKey } from "../wire/own-key.ts"
import { cleanInput, codePointLength, ErrorBag, isBlankInput, ownValue } from "./body-input.ts"
import { definitionsOf, isPipelineStage, PROPERTY_SYNONYMS, RECORD_SYSTEM_KEYS, SYNONYMS_OF } from "./builtin-properties.ts"
import { coerceBoolean, coerceNumber } from "./complex-filter.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { INTERNAL_NAME_PATTERN, optionNames, type PropertyDefinition } from "./property-definition.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"

// ---------------------------------------------------------------------------------------------
// Stored values
// ---------------------------------------------------------------------------------------------

/** One stored property value. */
export const StoredValue: Schema.Union<
  readonly [Schema.String, Schema.Finite, Schema.Boolean, Schema.$Array<Schema.String>]
> = Schema.Union([Schema.String, Schema.Finite, Schema.Boolean, Schema.Array(Schema.String)])
/** One stored property value: a string, a finite number, a boolean or a list of strings. */
export type StoredValue = typeof StoredValue.Type

/** A record's stored property values: internal_name → value; a property without a value is absent. */
export const StoredValues: Schema.$Record<Schema.String, typeof StoredValue> = Schema.Record(
  Schema.String,
  StoredValue
).annotate({ identifier: "StoredValues" })
/** A record's stored property values: internal_name → value; a property without a value is absent. */
export type StoredValues = Readonly<Record<string, StoredValue>>

/** What an update changes: a new value, or null to clear it. */
export type RecordPatch = Readonly<Record<string, StoredValue | null>>

/** The values after a patch (cleared keys removed, the others set; the order of `values` kept). */
export const applyRecordPatch = (values: StoredValues, patch: RecordPatch): StoredValues => {
  const out: Record<string, StoredValue> = Object.fromEntries(Object.entries(values))
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else setOwnKey(out, key, value)
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// One value
// ---------------------------------------------------------------------------------------------

/** The longest string or textarea value, in characters (code points). */
export const MAX_TEXT_LENGTH = 65_535
/** The longest email value, in characters. */
export const MAX_EMAIL_LENGTH = 254
/** The longest url value, in characters. */
export const MAX_URL_LENGTH = 2_048
/** The fewest digits a phone value has. */
export const MIN_PHONE_DIGITS = 6
/** The most digits a phone value has. */
export const MAX_PHONE_DIGITS = 20

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
const LOCAL_PART = new RegExp(`^${ATOM}(\\.${ATOM})*$`)
const DOMAIN = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/
const PHONE = /^\+?[0-9 ().-]+$/

/** Whether `s` is an e-mail address as an `email` property accepts it (a dotted domain, at most 254 characters). */
export const isEmail = (s: string): boolean => {
  if (codePointLength(s) > MAX_EMAIL_LENGTH) return false
  const at = s.lastIndexOf("@")
  if (at <= 0) return false
  const local = s.slice(0, at)
  const domain = s.slice(at + 1)
  return local.length <= 64 && LOCAL_PART.test(local) && domain.length <= 253 && DOMAIN.test(domain)
}

const isHttpUrl = (s: string): boolean => {
  if (s.length > MAX_URL_LENGTH || /\s/.test(s)) return false
  try {
    const url = new URL(s)
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
  } catch {
    return false
  }
}

/** The compact form of a phone number, or undefined when it is not one. */
export const normalizePhone = (s: string): string | undefined => {
  if (!PHONE.test(s)) return undefined
  const digits = s.replace(/[^0-9]/g, "")
  if (digits.length < MIN_PHONE_DIGITS || digits.length > MAX_PHONE_DIGITS) return undefined
  return (s.startsWith("+") ? "+" : "") + digits
}

/** An instant from any date input (see the module comment), within the years 0001–9999. */
const instantOf = (raw: unknown): DateTime.Utc | undefined => Option.getOrUndefined(parseDateInput(raw))

/**
 * One (already cleaned) value under `key`: the stored form, null for no value, or undefined with
 * the error added to the bag.
 */
const checkValue = (
  bag: ErrorBag,
  definition: PropertyDefinition,
  raw: unknown,
  key: string
): StoredValue | null | undefined => {
  if (raw === undefined || raw === null) return null
  const fail = (message: (key: string) => string): undefined => {
    bag.add(key, message(key))
    return undefined
  }
  switch (definition.type) {
    case "string":
    case "textarea":
      if (typeof raw !== "string") return fail(LaravelMessage.string)
      return codePointLength(raw) > MAX_TEXT_LENGTH ? fail((k) => LaravelMessageMore.maxString(k, MAX_TEXT_LENGTH)) : raw
    case "number":
      return coerceNumber(raw) ?? fail(LaravelMessage.numeric)
    case "boolean":
      return coerceBoolean(raw) ?? fail(LaravelMessage.boolean)
    case "date": {
      const instant = instantOf(raw)
      return instant === undefined ? fail(LaravelMessage.date) : formatWireTimestamp(instant).slice(0, 10)
    }
    case "datetime": {
      const instant = instantOf(raw)
      return instant === undefined ? fail(LaravelMessage.date) : formatWireTimestamp(instant)
    }
    case "single_select":
      // A stage's options are the account's pipelines' stages: the record's pipeline is checked
      // when the record is written (pipeline-rule.ts); here only the form of a stage name.
      if (isPipelineStage(definition)) return typeof raw === "string" && INTERNAL_NAME_PATTERN.test(raw) ? raw : fail(LaravelMessage.selectedInvalid)
      return typeof raw === "string" && optionNames(definition).includes(raw) ? raw : fail(LaravelMessage.selectedInvalid)
    case "multi_select": {
      if (!Array.isArray(raw)) return fail(LaravelMessage.list)
      const allowed = optionNames(definition)
      const chosen: Array<string> = []
      let valid = true
      raw.forEach((element, i) => {
        if (typeof element === "string" && allowed.includes(element)) {
          if (!chosen.includes(element)) chosen.push(element)
        } else {
          valid = false
          bag.add(`${key}.${i}`, LaravelMessage.selectedInvalid(`${key}.${i}`))
        }
      })
      if (!valid) return undefined
      return chosen.length === 0 ? null : chosen
    }
    case "email":
      if (typeof raw !== "string") return fail(LaravelMessage.string)
      return isEmail(raw) ? raw : fail(LaravelMessageMore.email)
    case "phone":
      if (typeof raw !== "string") return fail(LaravelMessage.string)
      return normalizePhone(raw) ?? fail(LaravelMessage.regex)
    case "url":
      if (typeof raw !== "string") return fail(LaravelMessage.string)
      return isHttpUrl(raw) ? raw : fail(LaravelMessageMore.url)
  }
}

/**
 * One value against one definition (cleaned like a body value first): its stored form, or null
 * for no value. Errors are keyed `key` (default: the internal_name).
 */
export const validatePropertyValue = (
  definition: PropertyDefinition,
  raw: unknown,
  key: string = definition.internal_name
): Effect.Effect<StoredValue | null, ValidationFailed> =>
  Effect.suspend(() => {
    const bag = new ErrorBag()
    const value = checkValue(bag, definition, cleanInput(raw), key)
    return value === undefined ? Effect.fail(bag.toFailure()) : Effect.succeed(value)
  })

// ---------------------------------------------------------------------------------------------
// Record bodies
// ---------------------------------------------------------------------------------------------

type Mode = "create" | "update"

const sameValue = (a: StoredValue | null, b: StoredValue | null): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b

const validateBody = (
  kind: ObjectKind,
  raw: unknown,
  custom: ReadonlyArray<PropertyDefinition>,
  mode: Mode
): Effect.Effect<Record<string, StoredValue | null>, ValidationFailed> =>
  Effect.suspend(() => {
    const cleaned = cleanInput(raw)
    const body: object = Predicate.isObject(cleaned) ? cleaned : {}
    const present = (key: string) => Object.hasOwn(body, key)
    const bag = new ErrorBag()
    const out = new Map<string, StoredValue | null>()
    const definitions = definitionsOf(kind, custom)
    const known = new Set(definitions.map((d) => d.internal_name))
    const synonymsOf = SYNONYMS_OF[kind]

    for (const definition of definitions) {
      const key = definition.internal_name
      const keys = [key, ...(synonymsOf.get(key) ?? [])].filter(present)
      if (definition.readOnly) {
        for (const k of keys) if (!isBlankInput(ownValue(body, k))) bag.add(k, LaravelMessage.prohibited(k))
        continue
      }
      if (keys.length === 0) {
        if (mode === "create" && definition.required) bag.add(key, LaravelMessage.required(key))
        continue
      }
      const values = keys.map((k) => checkValue(bag, definition, ownValue(body, k), k))
      if (values.some((v) => v === undefined)) continue
      const [value, ...others] = values as ReadonlyArray<StoredValue | null>
      const disagreeing = others.findIndex((other) => !sameValue(value!, other))
      if (disagreeing >= 0) {
        const synonym = keys[disagreeing + 1]!
        bag.add(synonym, LaravelMessageMore.same(synonym, keys[0]!))
        continue
      }
      if (value === null && definition.required) {
        bag.add(keys[0]!, LaravelMessage.required(keys[0]!))
        continue
      }
      if (value !== null || mode === "update") out.set(key, value!)
    }

    const synonyms = PROPERTY_SYNONYMS[kind]
    for (const key of Object.keys(body)) {
      if (known.has(key) || Object.hasOwn(synonyms, key)) continue
      if ((RECORD_SYSTEM_KEYS as ReadonlyArray<string>).includes(key)) {
        if (!isBlankInput(ownValue(body, key))) bag.add(key, LaravelMessage.prohibited(key))
      } else bag.add(key, LaravelMessageMore.unknownProperty(key, kind))
    }

    return bag.isEmpty ? Effect.succeed(Object.fromEntries(out)) : Effect.fail(bag.toFailure())
  })

/**
 * Validates the body of `POST /api/{kind}`: the values to store (no nulls), in definition order.
 * `custom` is the account's custom properties (other kinds' are ignored).
 */
export const validateRecordCreate = (
  kind: ObjectKind,
  raw: unknown,
  custom: ReadonlyArray<PropertyDefinition>
): Effect.Effect<StoredValues, ValidationFailed> =>
  validateBody(kind, raw, custom, "create") as Effect.Effect<StoredValues, ValidationFailed>

/**
 * Validates the body of `PUT /api/{kind}/{_id}` (partial): the patch to apply with
 * `applyRecordPatch`, null for a cleared value.
 */
export const validateRecordUpdate = (
  kind: ObjectKind,
  raw: unknown,
  custom: ReadonlyArray<PropertyDefinition>
): Effect.Effect<RecordPatch, ValidationFailed> => validateBody(kind, raw, custom, "update")

// ---------------------------------------------------------------------------------------------
// Definition changes
// ---------------------------------------------------------------------------------------------

/** A stored value as input for another type: text types take numbers and booleans as text, and
 * a select takes the other select's form (a lone option ↔ a one-element list). */
const asInputFor = (definition: PropertyDefinition, value: StoredValue): unknown => {
  switch (definition.type) {
    case "string":
    case "textarea":
      return typeof value === "number" || typeof value === "boolean" ? String(value) : value
    case "single_select":
      return Array.isArray(value) && value.length === 1 ? value[0] : value
    case "multi_select":
      return typeof value === "string" ? [value] : value
    default:
      return value
  }
}

/**
 * The stored values of a property under its changed definition `next` (a new type or option
 * list: a change the existing values cannot satisfy is refused with a 422). Each value is
 * read as input for the new definition (see `asInputFor`); if any does not fit, the change fails
 * on `type` when the type changed, else on `enum`. The converted values come back in order.
 */
export const convertValuesForDefinition = (
  previous: Pick<PropertyDefinition, "type">,
  next: PropertyDefinition,
  values: ReadonlyArray<StoredValue>
): Effect.Effect<ReadonlyArray<StoredValue | null>, ValidationFailed> =>
  Effect.suspend(() => {
    const bag = new ErrorBag()
    const converted = values.map((value) => checkValue(bag, next, asInputFor(next, value), next.internal_name))
    if (converted.every((v) => v !== undefined)) return Effect.succeed(converted as ReadonlyArray<StoredValue | null>)
    const key = previous.type === next.type ? "enum" : "type"
    const fresh = new ErrorBag()
    fresh.add(key, LaravelMessageMore.incompatibleValues(key))
    return Effect.fail(fresh.toFailure())
  })
