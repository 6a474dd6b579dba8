/**
 * The REST shape of a record (decisions §3, spec §2.2–2.4), which webhook bodies reuse (spec §6.3):
 * deal `{ properties, contacts }`, contact `{ properties, channels }`, every other kind
 * `{ properties }`.
 *
 * `properties`, key order: `_id`, `account_id`, every built-in property in definition order (null
 * when it has no value), the custom properties of the kind that have a value (definition order;
 * those without one are omitted), `created_at`, `updated_at`. Stored values are already JSON (dates
 * `YYYY-MM-DD`, datetimes wire timestamps); on top of them:
 * - deal `close_date` is written as `{ $date: { $numberLong: "<epoch ms>" } }` (decisions §1), and
 *   `forcast_amount` follows `forecast_amount` with the same value;
 * - contact `fullname` is derived: firstname, middlename, lastname, those with a value, joined by
 *   single spaces (null when none has one); `deal_ids` comes from the links (`[]` without any);
 * - ticket `contacts_count` and `deals_count` come from the links (null when not given);
 * - timestamps are wire timestamps with microseconds; channel `created_at` is a `$date` object.
 *
 * Deal `contacts` entries are what the caller passes: summaries `{ _id, account_id, firstname,
 * lastname }` (`contactSummary`) in list and attach responses, full contact shapes in the
 * detach-contact response (spec §2.2).
 */
import { DateTime, Option, Schema } from "effect"
import type { ObjectKind } from "../auth/permission.ts"
import { formatWireTimestamp, MongoDate, MongoDateObject, parseDateInput, WireTimestampString } from "../wire/timestamp.ts"
import { BUILTIN_PROPERTIES, definitionsOf } from "./builtin-properties.ts"
import type { PropertyDefinition } from "./property-definition.ts"
import type { PropertyType } from "./property-type.ts"
import type { StoredValue, StoredValues } from "./value-validation.ts"

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

/** A record as stored: its values and bookkeeping. */
export interface StoredRecord {
  readonly _id: string
  readonly account_id: number
  readonly values: StoredValues
  readonly created_at: DateTime.Utc
  readonly updated_at: DateTime.Utc
}

/** A contact's messaging channel entry. */
export interface ContactChannel {
  readonly platform_third_party_id: string
  readonly contact_third_party_id: string
  readonly created_at: DateTime.Utc
}

// ---------------------------------------------------------------------------------------------
// Output schemas (JSON as sent; for the HTTP contract and OpenAPI)
// ---------------------------------------------------------------------------------------------

/** A JSON schema without services: Type and Encoded are the same plain JSON. */
type JsonSchema = Schema.Codec<unknown, unknown>

const jsonOf = (type: PropertyType): JsonSchema => {
  switch (type) {
    case "number":
      return Schema.NullOr(Schema.Number)
    case "boolean":
      return Schema.NullOr(Schema.Boolean)
    case "multi_select":
      return Schema.NullOr(Schema.Array(Schema.String))
    default:
      return Schema.NullOr(Schema.String)
  }
}


/** The `properties` object of a kind: the fixed keys and built-ins typed, custom values open. */
const propertiesSchema = (kind: ObjectKind) => {
  const fields: Record<string, JsonSchema> = { _id: Schema.String, account_id: Schema.Int }
  for (const p of BUILTIN_PROPERTIES[kind]) {
    fields[p.internal_name] = kind === "deal" && p.internal_name === "close_date"
      ? Schema.NullOr(MongoDateObject)
      : jsonOf(p.type)
    if (kind === "deal" && p.internal_name === "forecast_amount") fields.forcast_amount = jsonOf(p.type)
  }
  fields.created_at = WireTimestampString
  fields.updated_at = WireTimestampString
  return Schema.StructWithRest(Schema.Struct(fields), [Schema.Record(Schema.String, Schema.Unknown)]).annotate({
    identifier: `${kind[0]!.toUpperCase()}${kind.slice(1)}Properties`
  })
}

export const ContactChannelJson = Schema.Struct({
  platform_third_party_id: Schema.String,
  contact_third_party_id: Schema.String,
  created_at: MongoDateObject
}).annotate({ identifier: "ContactChannel" })

/** A linked contact in a deal's list and attach responses. */
export const ContactSummaryJson = Schema.Struct({
  _id: Schema.String,
  account_id: Schema.Int,
  firstname: Schema.NullOr(Schema.String),
  lastname: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ContactSummary" })
export type ContactSummaryJson = typeof ContactSummaryJson.Type

export const ContactJson = Schema.Struct({
  properties: propertiesSchema("contact"),
  channels: Schema.Array(ContactChannelJson)
}).annotate({ identifier: "Contact" })

export const DealJson = Schema.Struct({
  properties: propertiesSchema("deal"),
  contacts: Schema.Array(Schema.Union([ContactSummaryJson, ContactJson]))
}).annotate({ identifier: "Deal" })

const propertiesOnly = (kind: ObjectKind, identifier: string) =>
  Schema.Struct({ properties: propertiesSchema(kind) }).annotate({ identifier })

export const TicketJson = propertiesOnly("ticket", "Ticket")
export const CompanyJson = propertiesOnly("company", "Company")
export const InvoiceJson = propertiesOnly("invoice", "Invoice")
export const ProductJson = propertiesOnly("product", "Product")

/** The record schema of each kind. */
export const RECORD_JSON: { readonly [K in ObjectKind]: JsonSchema } = {
  contact: ContactJson,
  company: CompanyJson,
  deal: DealJson,
  ticket: TicketJson,
  invoice: InvoiceJson,
  product: ProductJson
}

// ---------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------

/** A `properties` object: fixed keys, then property values (see the module comment). */
export interface RecordProperties {
  readonly _id: string
  readonly account_id: number
  readonly created_at: string
  readonly updated_at: string
  readonly [key: string]: unknown
}

export interface ContactRecordJson {
  readonly properties: RecordProperties
  readonly channels: ReadonlyArray<typeof ContactChannelJson.Type>
}
export interface DealRecordJson {
  readonly properties: RecordProperties
  readonly contacts: ReadonlyArray<ContactSummaryJson | ContactRecordJson>
}
export interface PlainRecordJson {
  readonly properties: RecordProperties
}
export type RecordJson = ContactRecordJson | DealRecordJson | PlainRecordJson

/** What a record shows beyond its stored values, from its links and channels. */
export interface DerivedData {
  /** Deal: the linked contacts, as summaries or full contact shapes. */
  readonly contacts?: ReadonlyArray<ContactSummaryJson | ContactRecordJson> | undefined
  /** Contact: its messaging channels. */
  readonly channels?: ReadonlyArray<ContactChannel> | undefined
  /** Contact: the ids of its linked deals. */
  readonly dealIds?: ReadonlyArray<string> | undefined
  /** Ticket: how many contacts / deals are linked. */
  readonly contactsCount?: number | null | undefined
  readonly dealsCount?: number | null | undefined
}

const encodeMongoDate = Schema.encodeSync(MongoDate)

/** A stored instant (a wire timestamp) as the `$date` object; null without a readable value. */
export const toMongoDate = (value: StoredValue | undefined): typeof MongoDateObject.Type | null =>
  value === undefined ? null : Option.match(parseDateInput(value), { onNone: () => null, onSome: encodeMongoDate })

const textOf = (value: StoredValue | undefined): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined

/** firstname, middlename, lastname — those with a value — joined by single spaces; null if none. */
export const deriveFullname = (values: StoredValues): string | null => {
  const parts = [values.firstname, values.middlename, values.lastname].map(textOf).filter((p) => p !== undefined)
  return parts.length === 0 ? null : parts.join(" ")
}

const derivedValue = (kind: ObjectKind, name: string, record: StoredRecord, derived: DerivedData): unknown => {
  if (kind === "contact" && name === "fullname") return deriveFullname(record.values)
  if (kind === "contact" && name === "deal_ids") return [...(derived.dealIds ?? [])]
  if (kind === "ticket" && name === "contacts_count") return derived.contactsCount ?? null
  if (kind === "ticket" && name === "deals_count") return derived.dealsCount ?? null
  if (kind === "deal" && name === "close_date") return toMongoDate(record.values.close_date)
  return record.values[name] ?? null
}

/**
 * The `properties` object of a record of `kind`. `custom` is the account's custom properties
 * (other kinds' are ignored); stored values of no current definition are not shown.
 */
export const recordProperties = (
  kind: ObjectKind,
  record: StoredRecord,
  custom: ReadonlyArray<PropertyDefinition>,
  derived: DerivedData = {}
): RecordProperties => {
  const out: Record<string, unknown> = { _id: record._id, account_id: record.account_id }
  for (const definition of definitionsOf(kind, custom)) {
    const name = definition.internal_name
    if (definition.builtin) {
      const value = derivedValue(kind, name, record, derived)
      out[name] = value
      if (kind === "deal" && name === "forecast_amount") out.forcast_amount = value
    } else if (Object.hasOwn(record.values, name)) {
      Object.defineProperty(out, name, { value: record.values[name], enumerable: true, writable: true, configurable: true })
    }
  }
  out.created_at = formatWireTimestamp(record.created_at)
  out.updated_at = formatWireTimestamp(record.updated_at)
  return out as unknown as RecordProperties
}

/** A contact channel entry as shown (`created_at` as a `$date` object). */
export const channelJson = (channel: ContactChannel): typeof ContactChannelJson.Type => ({
  platform_third_party_id: channel.platform_third_party_id,
  contact_third_party_id: channel.contact_third_party_id,
  created_at: encodeMongoDate(channel.created_at)
})

/** `{ properties, contacts }` */
export const dealJson = (
  record: StoredRecord,
  custom: ReadonlyArray<PropertyDefinition>,
  derived: DerivedData = {}
): DealRecordJson => ({
  properties: recordProperties("deal", record, custom, derived),
  contacts: [...(derived.contacts ?? [])]
})

/** `{ properties, channels }` */
export const contactJson = (
  record: StoredRecord,
  custom: ReadonlyArray<PropertyDefinition>,
  derived: DerivedData = {}
): ContactRecordJson => ({
  properties: recordProperties("contact", record, custom, derived),
  channels: (derived.channels ?? []).map(channelJson)
})

/** A linked contact as a deal lists it: `{ _id, account_id, firstname, lastname }`. */
export const contactSummary = (contact: StoredRecord): ContactSummaryJson => ({
  _id: contact._id,
  account_id: contact.account_id,
  firstname: textOf(contact.values.firstname) ?? null,
  lastname: textOf(contact.values.lastname) ?? null
})

/** The REST (and webhook) shape of a record of any kind. */
export const recordJson = (
  kind: ObjectKind,
  record: StoredRecord,
  custom: ReadonlyArray<PropertyDefinition>,
  derived: DerivedData = {}
): RecordJson => {
  switch (kind) {
    case "deal":
      return dealJson(record, custom, derived)
    case "contact":
      return contactJson(record, custom, derived)
    default:
      return { properties: recordProperties(kind, record, custom, derived) }
  }
}
