/**
 * Property definitions and property groups, in their wire shape and as the domain model the
 * records engine works with.
 *
 * Wire shape. `Property` and `PropertyGroup` are the `data` of the properties endpoints, minus the
 * embedded `user` (creating user), `group` (the Group record) and `account` objects: the HTTP layer
 * adds those, since core does not load users or accounts here. `desc` is an object with `ar`
 * and/or `en` when set and an empty array `[]` when not (the same for properties and groups).
 * `enum` is present only for single_select and multi_select. Built-ins carry `account_id` and
 * `made_by` null.
 *
 * Domain. `PropertyDefinition` adds `kind`, `builtin`, `readOnly` and `required`;
 * `PropertyGroupDefinition` adds `kind` and `builtin`. Encoding either with the wire schema drops
 * those extra fields (a Struct encodes only its own fields).
 *
 * Built-in ids. Built-in properties and groups exist in every account with the same `_id`:
 * `ffffffff` followed by the 64-bit FNV-1a hash (16 hex digits) of
 * `wasl:<kind>:property:<internal_name>` or `wasl:<kind>:group:<internal_name>`. Generated ids
 * (wire/record-id.ts) begin with the creation time in Unix seconds as 8 hex digits; `ffffffff`
 * is 2106-02-07T06:28:15Z, so a generated id can only take that prefix from a clock reading that
 * second (TestClock starts at 1970, so tests stay clear of it too). The hash keeps the ids stable
 * when built-ins are added or reordered; the test suite checks they are pairwise distinct.
 */
import { DateTime, Schema, SchemaGetter } from "effect"
import { AccountId, UserId } from "../account/account.ts"
import { RecordId } from "../wire/record-id.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import { type ObjectKind, ObjectKindSchema } from "./object-kind.ts"
import { type FilterableProperty, PropertyType } from "./property-type.ts"

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/**
 * The pattern of a property's internal_name: a lowercase letter, then up to 62 lowercase letters,
 * digits or underscores.
 */
export const INTERNAL_NAME_PATTERN: RegExp = /^[a-z][a-z0-9_]{0,62}$/

/** A display text per language: `ar` and/or `en` (at least one, checked at input). */
export const LocalizedText: Schema.Struct<{
  readonly ar: Schema.optionalKey<Schema.String>
  readonly en: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  ar: Schema.optionalKey(Schema.String),
  en: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "LocalizedText", description: "Display texts keyed by language code (ar, en)" })
/** Display texts keyed by language: `{ ar?: string, en?: string }`. */
export type LocalizedText = typeof LocalizedText.Type

/**
 * An optional description: `null` in the domain; on the wire the object, or `[]` when absent (what
 * PHP's json_encode writes for an empty array).
 */
export const WireDescription: Schema.decodeTo<
  Schema.NullOr<typeof LocalizedText>,
  Schema.Union<readonly [typeof LocalizedText, Schema.Tuple<readonly []>]>
> = Schema.Union([LocalizedText, Schema.Tuple([])]).pipe(
  Schema.decodeTo(Schema.NullOr(LocalizedText), {
    decode: SchemaGetter.transform((wire: LocalizedText | readonly []): LocalizedText | null =>
      Array.isArray(wire) ? null : wire as LocalizedText
    ),
    encode: SchemaGetter.transform((desc: LocalizedText | null): LocalizedText | readonly [] => desc ?? [])
  })
).annotate({ identifier: "Description", description: "Display texts keyed by language code; [] when absent" })

/** One option of a select property: its labels and the internal_name values are stored as. */
export const EnumOption: Schema.Struct<{
  readonly en: Schema.String
  readonly ar: Schema.String
  readonly internal_name: Schema.String
}> = Schema.Struct({
  en: Schema.String,
  ar: Schema.String,
  internal_name: Schema.String
}).annotate({ identifier: "EnumOption" })
/** One option of a select property: `{ en, ar, internal_name }`. */
export type EnumOption = typeof EnumOption.Type

/** Whether a type carries options (`enum`). */
export const isSelectType = (type: PropertyType): type is "single_select" | "multi_select" =>
  type === "single_select" || type === "multi_select"

// ---------------------------------------------------------------------------------------------
// Property
// ---------------------------------------------------------------------------------------------

const propertyFields = {
  _id: RecordId,
  type: PropertyType,
  name: LocalizedText,
  desc: WireDescription,
  internal_name: Schema.String,
  group_id: RecordId,
  enum: Schema.optionalKey(Schema.Array(EnumOption)),
  account_id: Schema.NullOr(AccountId),
  made_by: Schema.NullOr(UserId),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}

/**
 * A property definition as the properties endpoints return it, without the embedded `user`,
 * `group` and `account` objects the HTTP layer adds.
 */
export const Property: Schema.Struct<{
  /** The property's id (a built-in's is the same in every account). */
  readonly _id: typeof RecordId
  readonly type: typeof PropertyType
  /** Its display name. */
  readonly name: typeof LocalizedText
  readonly desc: typeof WireDescription
  /** The key its values are stored, shown and filtered under. */
  readonly internal_name: Schema.String
  /** The property group it belongs to. */
  readonly group_id: typeof RecordId
  /** The options of a select property (absent for other types). */
  readonly enum: Schema.optionalKey<Schema.$Array<typeof EnumOption>>
  /** The owning account; null for a built-in. */
  readonly account_id: Schema.NullOr<typeof AccountId>
  /** The user who created it; null for a built-in. */
  readonly made_by: Schema.NullOr<typeof UserId>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct(propertyFields).annotate({ identifier: "Property" })
/** A property definition in its wire shape (see `Property`). */
export type Property = typeof Property.Type

/** A property definition with what the engine needs beyond the wire fields. */
export const PropertyDefinition: Schema.Struct<
  typeof Property.fields & {
    /** The object kind the property belongs to. */
    readonly kind: typeof ObjectKindSchema
    /** One of the built-ins every account has: readable by everyone, never changed or deleted. */
    readonly builtin: Schema.Boolean
    /** Set by the service only (derived values, created_by); a body carrying it is refused. */
    readonly readOnly: Schema.Boolean
    /** Must have a value on create and may not be cleared (the kind's name property). */
    readonly required: Schema.Boolean
  }
> = Schema.Struct({
  ...propertyFields,
  kind: ObjectKindSchema,
  builtin: Schema.Boolean,
  readOnly: Schema.Boolean,
  required: Schema.Boolean
}).annotate({ identifier: "PropertyDefinition" })
/**
 * A property definition as the records engine works with it: the wire fields plus `kind`,
 * `builtin`, `readOnly` and `required`.
 */
export type PropertyDefinition = typeof PropertyDefinition.Type

/** The wire form of a definition (timestamps as strings, `desc` `[]` when absent). */
export const encodeProperty: (definition: Property) => typeof Property.Encoded = Schema.encodeSync(Property)

/** The option internal_names of a select property (empty for other types). */
export const optionNames = (definition: Pick<PropertyDefinition, "enum">): ReadonlyArray<string> =>
  definition.enum?.map((o) => o.internal_name) ?? []

/**
 * What the complex_filters parser needs to know about a definition. A select without options
 * (the derived `deal_ids`) accepts any value.
 */
export const toFilterableProperty = (definition: PropertyDefinition): FilterableProperty =>
  isSelectType(definition.type) && definition.enum !== undefined && definition.enum.length > 0
    ? { internal_name: definition.internal_name, type: definition.type, options: optionNames(definition) }
    : { internal_name: definition.internal_name, type: definition.type }

// ---------------------------------------------------------------------------------------------
// Property group
// ---------------------------------------------------------------------------------------------

const groupFields = {
  _id: RecordId,
  name: LocalizedText,
  desc: WireDescription,
  internal_name: Schema.String,
  account_id: Schema.NullOr(AccountId),
  made_by: Schema.NullOr(UserId),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}

/** A property group as the groups endpoints return it, without `user` and `account`. */
export const PropertyGroup: Schema.Struct<{
  /** The group's id (a built-in's is the same in every account). */
  readonly _id: typeof RecordId
  /** Its display name. */
  readonly name: typeof LocalizedText
  readonly desc: typeof WireDescription
  /** Its unique name within the kind. */
  readonly internal_name: Schema.String
  /** The owning account; null for a built-in. */
  readonly account_id: Schema.NullOr<typeof AccountId>
  /** The user who created it; null for a built-in. */
  readonly made_by: Schema.NullOr<typeof UserId>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct(groupFields).annotate({ identifier: "PropertyGroup" })
/** A property group in its wire shape (see `PropertyGroup`). */
export type PropertyGroup = typeof PropertyGroup.Type

/** A property group with what the engine needs beyond the wire fields. */
export const PropertyGroupDefinition: Schema.Struct<
  typeof PropertyGroup.fields & {
    /** The object kind the group belongs to. */
    readonly kind: typeof ObjectKindSchema
    /** The kind's built-in group: readable by everyone, never changed or deleted. */
    readonly builtin: Schema.Boolean
  }
> = Schema.Struct({
  ...groupFields,
  kind: ObjectKindSchema,
  builtin: Schema.Boolean
}).annotate({ identifier: "PropertyGroupDefinition" })
/** A property group as the records engine works with it: the wire fields plus `kind` and `builtin`. */
export type PropertyGroupDefinition = typeof PropertyGroupDefinition.Type

/** The wire form of a group (timestamps as strings, `desc` `[]` when absent). */
export const encodePropertyGroup: (group: PropertyGroup) => typeof PropertyGroup.Encoded = Schema.encodeSync(
  PropertyGroup
)

// ---------------------------------------------------------------------------------------------
// Built-in ids and timestamps
// ---------------------------------------------------------------------------------------------

/** The first 8 hex digits of every built-in property and group id. */
export const BUILTIN_ID_PREFIX = "ffffffff"

const FNV_OFFSET = 0xcbf29ce484222325n
const FNV_PRIME = 0x100000001b3n
const MASK_64 = 0xffffffffffffffffn

/** 64-bit FNV-1a over the UTF-8 bytes of `text`, as 16 lowercase hex digits. */
export const fnv1a64Hex = (text: string): string => {
  let hash = FNV_OFFSET
  for (const byte of new TextEncoder().encode(text)) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64
  return hash.toString(16).padStart(16, "0")
}

const builtinId = (seed: string): RecordId => RecordId.make(BUILTIN_ID_PREFIX + fnv1a64Hex(`wasl:${seed}`))

/** The `_id` of a kind's built-in property, the same in every account. */
export const builtinPropertyId = (kind: ObjectKind, internalName: string): RecordId =>
  builtinId(`${kind}:property:${internalName}`)

/** The `_id` of a kind's built-in group, the same in every account. */
export const builtinGroupId = (kind: ObjectKind, internalName: string): RecordId =>
  builtinId(`${kind}:group:${internalName}`)

/** Whether an id is of the built-in form (see the module comment). */
export const isBuiltinId = (id: string): boolean => id.startsWith(BUILTIN_ID_PREFIX)

/** The `created_at` / `updated_at` every built-in property and group shows. */
export const BUILTIN_TIMESTAMP: DateTime.Utc = DateTime.makeUnsafe(Date.UTC(2026, 0, 1))

