/**
 * Validation of property and property-group bodies, and the internal_name a new group gets.
 *
 * Rules, as a Laravel form request would write them (all failures reported together, one message
 * per key: the first rule that fails; keys in dot notation; strings trimmed and "" read as null
 * first, see body-input.ts):
 *
 * | key | create | update |
 * |---|---|---|
 * | type | required, string, in: the 11 property types | same |
 * | name | required, array; name.ar / name.en: required_without the other, string, max:255 | same |
 * | desc | nullable, array; desc.ar / desc.en: string, max:255 (`{}` counts as no desc) | same |
 * | internal_name | required, string, regex `^[a-z][a-z0-9_]{0,62}$`, unique among the kind's built-ins, reserved names and the account's custom properties | not sent; a different one → "cannot be changed", the same one is fine |
 * | group_id | required, string, 24 lowercase hex, one of the kind's groups when those are given (else "The selected group id is invalid.") | same |
 * | enum | for single_select / multi_select: required_if, list, min:1, max:1000 (checked before the options); enum.N: array; enum.N.en / enum.N.ar: required_without the other, string, max:255; enum.N.internal_name: required, string, the internal_name regex, distinct. Other types: prohibited | same |
 *
 * An option given with one label only gets the other filled with it, so the stored EnumOption
 * always carries both `en` and `ar`. Unknown body keys are ignored, as Laravel does.
 * Group bodies: `name` and `desc` as above.
 */
import { Effect, Predicate } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { ValidationFailed } from "../errors.ts"
import { RecordId } from "../wire/record-id.ts"
import { cleanInput, codePointLength, ErrorBag, isBlankInput, ownValue } from "./body-input.ts"
import { RESERVED_INTERNAL_NAMES } from "./builtin-properties.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import {
  type EnumOption,
  INTERNAL_NAME_PATTERN,
  isSelectType,
  type LocalizedText,
  type PropertyDefinition
} from "./property-definition.ts"
import { PROPERTY_TYPES, type PropertyType } from "./property-type.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"

/** The longest name, description or option label, in characters. */
export const MAX_LABEL_LENGTH = 255

/** The most options a select property has. */
export const MAX_ENUM_OPTIONS = 1000

const RECORD_ID_PATTERN = /^[0-9a-f]{24}$/

/** A validated property body (create and update). */
export interface PropertyInput {
  /** The property's type. */
  readonly type: PropertyType
  /** Its display name (at least one of `ar`, `en`). */
  readonly name: LocalizedText
  /** Its description; null when none was given. */
  readonly desc: LocalizedText | null
  /** The group it goes in. */
  readonly group_id: RecordId
  /** The options of a select type; null for the other types. */
  readonly enum: ReadonlyArray<EnumOption> | null
}

/** A validated create body. */
export interface PropertyCreateInput extends PropertyInput {
  /** The new property's internal_name, free among the kind's properties and reserved names. */
  readonly internal_name: string
}

/** What the use-case knows of the kind in the account. */
export interface PropertyBodyContext {
  /** The object kind the property belongs to. */
  readonly kind: ObjectKind
  /** The internal_names of the account's custom properties of the kind (built-ins are always taken). */
  readonly takenInternalNames?: ReadonlyArray<string> | undefined
  /** The `_id`s of the kind's groups (built-in and custom); when given, group_id must be one of them. */
  readonly groupIds?: ReadonlyArray<string> | undefined
}

/** A validated group body (create and update). */
export interface GroupInput {
  /** The group's display name (at least one of `ar`, `en`). */
  readonly name: LocalizedText
  /** Its description; null when none was given. */
  readonly desc: LocalizedText | null
}

// ---------------------------------------------------------------------------------------------
// Pieces
// ---------------------------------------------------------------------------------------------

const bodyObject = (raw: unknown): object => {
  const cleaned = cleanInput(raw)
  return Predicate.isObject(cleaned) ? cleaned : {}
}

/** A string of at most 255 characters under `key`, or undefined (with the error added). */
const label = (bag: ErrorBag, key: string, value: unknown): string | undefined => {
  if (typeof value !== "string") {
    bag.add(key, LaravelMessage.string(key))
    return undefined
  }
  if (codePointLength(value) > MAX_LABEL_LENGTH) {
    bag.add(key, LaravelMessageMore.maxString(key, MAX_LABEL_LENGTH))
    return undefined
  }
  return value
}

/**
 * `{ ar?, en? }` under `key`. Required: the object and at least one of the two. Optional: absent,
 * null and `{}` are all no value (null).
 */
export const localizedText = (bag: ErrorBag, body: object, key: string, required: boolean): LocalizedText | null => {
  const value = ownValue(body, key)
  if (isBlankInput(value)) {
    if (required) bag.add(key, LaravelMessage.required(key))
    return null
  }
  if (!Predicate.isObject(value)) {
    bag.add(key, LaravelMessage.array(key))
    return null
  }
  const en = ownValue(value, "en")
  const ar = ownValue(value, "ar")
  if (isBlankInput(en) && isBlankInput(ar)) {
    if (required) {
      bag.add(`${key}.en`, LaravelMessageMore.requiredWithout(`${key}.en`, `${key}.ar`))
      bag.add(`${key}.ar`, LaravelMessageMore.requiredWithout(`${key}.ar`, `${key}.en`))
    }
    return null
  }
  const enText = isBlankInput(en) ? undefined : label(bag, `${key}.en`, en)
  const arText = isBlankInput(ar) ? undefined : label(bag, `${key}.ar`, ar)
  return {
    ...(arText === undefined ? {} : { ar: arText }),
    ...(enText === undefined ? {} : { en: enText })
  }
}

const propertyType = (bag: ErrorBag, body: object): PropertyType | undefined => {
  const value = ownValue(body, "type")
  if (isBlankInput(value)) bag.add("type", LaravelMessage.required("type"))
  else if (typeof value !== "string") bag.add("type", LaravelMessage.string("type"))
  else if (!(PROPERTY_TYPES as ReadonlyArray<string>).includes(value)) bag.add("type", LaravelMessage.selectedInvalid("type"))
  else return value as PropertyType
  return undefined
}

const groupId = (bag: ErrorBag, body: object, groupIds: ReadonlyArray<string> | undefined): RecordId | undefined => {
  const key = "group_id"
  const value = ownValue(body, key)
  if (isBlankInput(value)) bag.add(key, LaravelMessage.required(key))
  else if (typeof value !== "string") bag.add(key, LaravelMessage.string(key))
  else if (!RECORD_ID_PATTERN.test(value) || (groupIds !== undefined && !groupIds.includes(value))) {
    bag.add(key, LaravelMessage.selectedInvalid(key))
  } else return RecordId.make(value)
  return undefined
}

const options = (bag: ErrorBag, body: object, type: PropertyType | undefined): ReadonlyArray<EnumOption> | null => {
  const key = "enum"
  const value = ownValue(body, key)
  if (type === undefined) return null // the type's own error says it all
  if (!isSelectType(type)) {
    if (!isBlankInput(value)) bag.add(key, LaravelMessage.prohibited(key))
    return null
  }
  if (isBlankInput(value)) {
    bag.add(key, LaravelMessageMore.requiredIf(key, "type", type))
    return null
  }
  if (!Array.isArray(value)) {
    bag.add(key, LaravelMessage.list(key))
    return null
  }
  if (value.length > MAX_ENUM_OPTIONS) {
    bag.add(key, LaravelMessage.maxArray(key, MAX_ENUM_OPTIONS))
    return null
  }
  const names = value.map((o) => Predicate.isObject(o) ? ownValue(o, "internal_name") : undefined)
  const result: Array<EnumOption> = []
  value.forEach((raw, i) => {
    const at = `${key}.${i}`
    if (!Predicate.isObject(raw)) return bag.add(at, LaravelMessage.array(at))
    let valid = true
    const text = (lang: "en" | "ar", other: "en" | "ar"): string | undefined => {
      const v = ownValue(raw, lang)
      if (!isBlankInput(v)) {
        const s = label(bag, `${at}.${lang}`, v)
        if (s === undefined) valid = false
        return s
      }
      if (isBlankInput(ownValue(raw, other))) {
        bag.add(`${at}.${lang}`, LaravelMessageMore.requiredWithout(`${at}.${lang}`, `${at}.${other}`))
        valid = false
      }
      return undefined
    }
    const en = text("en", "ar")
    const ar = text("ar", "en")
    const nameKey = `${at}.internal_name`
    const name = names[i]
    if (isBlankInput(name)) bag.add(nameKey, LaravelMessage.required(nameKey))
    else if (typeof name !== "string") bag.add(nameKey, LaravelMessage.string(nameKey))
    else if (!INTERNAL_NAME_PATTERN.test(name)) bag.add(nameKey, LaravelMessage.regex(nameKey))
    else if (names.filter((n) => n === name).length > 1) bag.add(nameKey, LaravelMessageMore.distinct(nameKey))
    else if (valid) result.push({ en: en ?? ar!, ar: ar ?? en!, internal_name: name })
  })
  return result
}

const finish = <A>(bag: ErrorBag, build: () => A): Effect.Effect<A, ValidationFailed> =>
  bag.isEmpty ? Effect.succeed(build()) : Effect.fail(bag.toFailure())

// ---------------------------------------------------------------------------------------------
// Property bodies
// ---------------------------------------------------------------------------------------------

/** Validates the body of `POST /api/{kind}/properties`. */
export const validatePropertyCreate = (
  raw: unknown,
  context: PropertyBodyContext
): Effect.Effect<PropertyCreateInput, ValidationFailed> =>
  Effect.suspend(() => {
    const bag = new ErrorBag()
    const body = bodyObject(raw)
    const type = propertyType(bag, body)
    const name = localizedText(bag, body, "name", true)
    const desc = localizedText(bag, body, "desc", false)

    const key = "internal_name"
    const value = ownValue(body, key)
    let internalName: string | undefined
    if (isBlankInput(value)) bag.add(key, LaravelMessage.required(key))
    else if (typeof value !== "string") bag.add(key, LaravelMessage.string(key))
    else if (!INTERNAL_NAME_PATTERN.test(value)) bag.add(key, LaravelMessage.regex(key))
    else if (RESERVED_INTERNAL_NAMES[context.kind].includes(value) || (context.takenInternalNames ?? []).includes(value)) {
      bag.add(key, LaravelMessageMore.unique(key))
    } else internalName = value

    const group = groupId(bag, body, context.groupIds)
    const enumOptions = options(bag, body, type)
    return finish(bag, () => ({
      type: type!,
      name: name!,
      desc,
      internal_name: internalName!,
      group_id: group!,
      enum: enumOptions
    }))
  })

/**
 * Validates the body of `PUT /api/{kind}/properties/{_id}` for the stored definition `current`.
 * Whether the stored values fit a new type or option list is checked separately
 * (`convertValuesForDefinition`).
 */
export const validatePropertyUpdate = (
  raw: unknown,
  current: Pick<PropertyDefinition, "internal_name">,
  context: Pick<PropertyBodyContext, "groupIds"> = {}
): Effect.Effect<PropertyInput, ValidationFailed> =>
  Effect.suspend(() => {
    const bag = new ErrorBag()
    const body = bodyObject(raw)
    const type = propertyType(bag, body)
    const name = localizedText(bag, body, "name", true)
    const desc = localizedText(bag, body, "desc", false)
    const internalName = ownValue(body, "internal_name")
    if (!isBlankInput(internalName) && internalName !== current.internal_name) {
      bag.add("internal_name", LaravelMessageMore.immutable("internal_name"))
    }
    const group = groupId(bag, body, context.groupIds)
    const enumOptions = options(bag, body, type)
    return finish(bag, () => ({ type: type!, name: name!, desc, group_id: group!, enum: enumOptions }))
  })

// ---------------------------------------------------------------------------------------------
// Group bodies
// ---------------------------------------------------------------------------------------------

/** Validates the body of a group create or update: `name` (required) and `desc`. */
export const validateGroupBody = (raw: unknown): Effect.Effect<GroupInput, ValidationFailed> =>
  Effect.suspend(() => {
    const bag = new ErrorBag()
    const body = bodyObject(raw)
    const name = localizedText(bag, body, "name", true)
    const desc = localizedText(bag, body, "desc", false)
    return finish(bag, () => ({ name: name!, desc }))
  })

/** The longest group internal_name. */
export const MAX_GROUP_INTERNAL_NAME_LENGTH = 63

/**
 * snake_case of a display name, kept to `[a-z0-9_]`: accents are dropped (NFKD, combining marks
 * removed: "Café" → "cafe"), camelCase words split ("DealInfo" → "deal_info", "VIPClients" →
 * "vip_clients"), every other run of characters becomes one `_`, and nothing is transliterated
 * (an Arabic name gives ""). At most 63 characters, no leading or trailing `_`.
 */
export const snakeCaseName = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_GROUP_INTERNAL_NAME_LENGTH)
    .replace(/_+$/, "")

/**
 * The internal_name of a new group: the snake_case of `name.en`, else of `name.ar`,
 * else `group`; made unique among `taken` (the kind's group internal_names in the account,
 * built-in included) with a numeric suffix: `sales`, `sales_2`, `sales_3`, ... An update keeps
 * the name it was given.
 */
export const deriveGroupInternalName = (name: LocalizedText, taken: Iterable<string>): string => {
  const used = new Set(taken)
  const base = [name.en, name.ar].map((t) => t === undefined ? "" : snakeCaseName(t)).find((s) => s !== "") ?? "group"
  if (!used.has(base)) return base
  for (let n = 2;; n++) {
    const suffix = `_${n}`
    const candidate = base.slice(0, MAX_GROUP_INTERNAL_NAME_LENGTH - suffix.length).replace(/_+$/, "") + suffix
    if (!used.has(candidate)) return candidate
  }
}
