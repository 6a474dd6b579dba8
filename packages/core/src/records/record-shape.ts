/**
 * The REST shape of a record, which webhook bodies reuse: deal `{ properties, contacts }`, contact
 * `{ properties, channels }`, every other kind `{ properties }`.
 *
 * `properties`, key order: `_id`, `account_id`, every built-in property in definition order (null
 * when it has no value), `created_at`, `updated_at`, then the custom properties of the kind that
 * have a value (definition order; those without one are omitted): the order of the kind's schema
 * (fixed keys, then the rest), so an answer is written as built. Stored values are already JSON (dates
 * `YYYY-MM-DD`, datetimes wire timestamps); on top of them:
 * - deal `close_date` is written as `{ $date: { $numberLong: "<epoch ms>" } }`, and
 *   `forcast_amount` follows `forecast_amount` with the same value;
 * - contact `fullname` is derived: firstname, middlename, lastname, those with a value, joined by
 *   single spaces (null when none has one);
 * - the linked ids (contact `deal_ids`, company `contact_ids`, `deal_ids` and `ticket_ids`, the
 *   `company_ids` of contacts, deals and tickets) come from the links (`[]` without any), and so
 *   do the link counts of tickets and companies (null when not given);
 * - timestamps are wire timestamps with microseconds; channel `created_at` is a `$date` object.
 *
 * Deal `contacts` entries are what the caller passes: summaries `{ _id, account_id, firstname,
 * lastname }` (`contactSummary`) in list and attach responses, full contact shapes in the
 * detach-contact response.
 */
import { DateTime, Option, Schema } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import { setOwnKey } from "../wire/own-key.ts"
import {
  formatWireTimestamp,
  mongoDateOf,
  MongoDateObject,
  parseDateInput,
  storableWireMillis,
  WireTimestampString
} from "../wire/timestamp.ts"
import { BUILTIN_PROPERTIES, INTEGER_PROPERTIES, isCustomPropertyOf } from "./builtin-properties.ts"
import type { PropertyDefinition } from "./property-definition.ts"
import type { PropertyType } from "./property-type.ts"
import type { StoredValue, StoredValues } from "./value-validation.ts"

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

/** A record as stored: its values and bookkeeping. */
export interface StoredRecord {
  /** The record's id. */
  readonly _id: string
  /** The account it belongs to. */
  readonly account_id: number
  /** Its property values by internal_name (only those that have one). */
  readonly values: StoredValues
  /** When it was created. */
  readonly created_at: DateTime.Utc
  /** When it was last changed. */
  readonly updated_at: DateTime.Utc
}

/** A contact's messaging channel entry: the contact's id on one messaging platform. */
export interface ContactChannel {
  /** The entry's id (a record id): what a message names as its `contact_channel_id`. */
  readonly _id: string
  /** The platform's id at its provider (e.g. a WhatsApp phone number id). */
  readonly platform_third_party_id: string
  /** The contact's id on that platform (e.g. its WhatsApp number). */
  readonly contact_third_party_id: string
  /** When the channel was recorded. */
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
      return Schema.NullOr(Schema.Finite)
    case "boolean":
      return Schema.NullOr(Schema.Boolean)
    case "multi_select":
      return Schema.NullOr(Schema.Array(Schema.String))
    default:
      return Schema.NullOr(Schema.String)
  }
}


/**
 * The schema of a kind's `properties` object: the fixed keys and built-in properties typed, any
 * other key (a custom property's value) open.
 */
export type RecordPropertiesSchema = Schema.StructWithRest<
  Schema.Struct<Record<string, Schema.Codec<unknown, unknown>>>,
  readonly [Schema.$Record<Schema.String, Schema.Unknown>]
>

/** The `properties` object of a kind: the fixed keys and built-ins typed, custom values open. */
const propertiesSchema = (kind: ObjectKind): RecordPropertiesSchema => {
  const fields: Record<string, JsonSchema> = { _id: Schema.String, account_id: Schema.Int }
  for (const p of BUILTIN_PROPERTIES[kind]) {
    fields[p.internal_name] = kind === "deal" && p.internal_name === "close_date"
      ? Schema.NullOr(MongoDateObject)
      : INTEGER_PROPERTIES[kind].includes(p.internal_name)
      ? Schema.NullOr(Schema.Int)
      : jsonOf(p.type)
    if (kind === "deal" && p.internal_name === "forecast_amount") fields.forcast_amount = jsonOf(p.type)
  }
  fields.created_at = WireTimestampString
  fields.updated_at = WireTimestampString
  return Schema.StructWithRest(Schema.Struct(fields), [Schema.Record(Schema.String, Schema.Unknown)]).annotate({
    identifier: `${kind[0]!.toUpperCase()}${kind.slice(1)}Properties`
  })
}

/** A contact's channel entry as shown: `created_at` is a `$date` object. */
export const ContactChannelJson: Schema.Struct<{
  readonly _id: Schema.String
  readonly platform_third_party_id: Schema.String
  readonly contact_third_party_id: Schema.String
  readonly created_at: typeof MongoDateObject
}> = Schema.Struct({
  _id: Schema.String,
  platform_third_party_id: Schema.String,
  contact_third_party_id: Schema.String,
  created_at: MongoDateObject
}).annotate({ identifier: "ContactChannel" })

/** A linked contact in a deal's list and attach responses. */
export const ContactSummaryJson: Schema.Struct<{
  readonly _id: Schema.String
  readonly account_id: Schema.Int
  readonly firstname: Schema.NullOr<Schema.String>
  readonly lastname: Schema.NullOr<Schema.String>
}> = Schema.Struct({
  _id: Schema.String,
  account_id: Schema.Int,
  firstname: Schema.NullOr(Schema.String),
  lastname: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ContactSummary" })
/** A linked contact in a deal's list and attach responses: `{ _id, account_id, firstname, lastname }`. */
export type ContactSummaryJson = typeof ContactSummaryJson.Type

/** A contact as shown: `{ properties, channels }`. */
export const ContactJson: Schema.Struct<{
  readonly properties: RecordPropertiesSchema
  readonly channels: Schema.$Array<typeof ContactChannelJson>
}> = Schema.Struct({
  properties: propertiesSchema("contact"),
  channels: Schema.Array(ContactChannelJson)
}).annotate({ identifier: "Contact" })

/**
 * A full contact record at the top level: its properties and its `channels` side by side, as a
 * deal's detach-contact answer lists the remaining contacts (the wrapped `{ properties, channels }`
 * is for ticket attach-contacts and webhook payloads).
 */
export const FlatContactJson: Schema.StructWithRest<
  Schema.Struct<Record<string, Schema.Codec<unknown, unknown>>>,
  readonly [Schema.$Record<Schema.String, Schema.Unknown>]
> = Schema.StructWithRest(
  Schema.Struct({ ...propertiesSchema("contact").schema.fields, channels: Schema.Array(ContactChannelJson) }),
  [Schema.Record(Schema.String, Schema.Unknown)]
).annotate({ identifier: "FlatContact" })

/** A deal as shown: `{ properties, contacts }`, the contacts as summaries or flat full contact records. */
export const DealJson: Schema.Struct<{
  readonly properties: RecordPropertiesSchema
  readonly contacts: Schema.$Array<Schema.Union<readonly [typeof FlatContactJson, typeof ContactSummaryJson]>>
}> = Schema.Struct({
  properties: propertiesSchema("deal"),
  // The flat record first: a summary is no full record (it lacks `channels`), while a full record
  // would also pass as a summary and be cut down to one.
  contacts: Schema.Array(Schema.Union([FlatContactJson, ContactSummaryJson]))
}).annotate({ identifier: "Deal" })

/** The schema of a record shown as its `properties` alone (companies, tickets, invoices, products). */
export type PlainRecordSchema = Schema.Struct<{ readonly properties: RecordPropertiesSchema }>

const propertiesOnly = (kind: ObjectKind, identifier: string): PlainRecordSchema =>
  Schema.Struct({ properties: propertiesSchema(kind) }).annotate({ identifier })

/** A ticket as shown: `{ properties }`. */
export const TicketJson: PlainRecordSchema = propertiesOnly("ticket", "Ticket")
/** A company as shown: `{ properties }`. */
export const CompanyJson: PlainRecordSchema = propertiesOnly("company", "Company")
/** An invoice as shown: `{ properties }`. */
export const InvoiceJson: PlainRecordSchema = propertiesOnly("invoice", "Invoice")
/** A product as shown: `{ properties }`. */
export const ProductJson: PlainRecordSchema = propertiesOnly("product", "Product")

/** The record schema of each kind (JSON as sent: its Type and Encoded are the same). */
export const RECORD_JSON: { readonly [K in ObjectKind]: Schema.Codec<unknown, unknown> } = {
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
  /** The record's id. */
  readonly _id: string
  /** The account it belongs to. */
  readonly account_id: number
  /** When it was created, as a wire timestamp. */
  readonly created_at: string
  /** When it was last changed, as a wire timestamp. */
  readonly updated_at: string
  /** A property value, by internal_name. */
  readonly [key: string]: unknown
}

/** A contact as shown: its properties and its messaging channels. */
export interface ContactRecordJson {
  /** The record's `properties` object. */
  readonly properties: RecordProperties
  /** Its messaging channels. */
  readonly channels: ReadonlyArray<typeof ContactChannelJson.Type>
}
/** A full contact record flat: its properties at the top level, with its messaging channels. */
export interface FlatContactRecordJson extends RecordProperties {
  /** Its messaging channels. */
  readonly channels: ReadonlyArray<typeof ContactChannelJson.Type>
}
/** A deal as shown: its properties and its linked contacts. */
export interface DealRecordJson {
  /** The record's `properties` object. */
  readonly properties: RecordProperties
  /** The linked contacts, as summaries or flat full contact records. */
  readonly contacts: ReadonlyArray<ContactSummaryJson | FlatContactRecordJson>
}
/** A company, ticket, invoice or product as shown: its properties alone. */
export interface PlainRecordJson {
  /** The record's `properties` object. */
  readonly properties: RecordProperties
}
/** A record of any kind as the REST API and webhook bodies show it. */
export type RecordJson = ContactRecordJson | DealRecordJson | PlainRecordJson

/** What a record shows beyond its stored values, from its links and channels. */
export interface DerivedData {
  /** Deal: the linked contacts, as summaries or flat full contact records. */
  readonly contacts?: ReadonlyArray<ContactSummaryJson | FlatContactRecordJson> | undefined
  /** Contact: its messaging channels. */
  readonly channels?: ReadonlyArray<ContactChannel> | undefined
  /** Contact, company: the ids of its linked deals. */
  readonly dealIds?: ReadonlyArray<string> | undefined
  /** Contact, deal, ticket: the ids of its linked companies. */
  readonly companyIds?: ReadonlyArray<string> | undefined
  /** Company: the ids of its linked contacts. */
  readonly contactIds?: ReadonlyArray<string> | undefined
  /** Company: the ids of its linked tickets. */
  readonly ticketIds?: ReadonlyArray<string> | undefined
  /** Ticket, company: how many contacts are linked. */
  readonly contactsCount?: number | null | undefined
  /** Ticket, company: how many deals are linked. */
  readonly dealsCount?: number | null | undefined
  /** Company: how many tickets are linked. */
  readonly ticketsCount?: number | null | undefined
}

/** The derived built-ins holding linked ids, and where `DerivedData` has them. */
const LINKED_IDS: Readonly<Record<string, "dealIds" | "companyIds" | "contactIds" | "ticketIds">> = {
  deal_ids: "dealIds",
  company_ids: "companyIds",
  contact_ids: "contactIds",
  ticket_ids: "ticketIds"
}

/** The derived built-ins counting links, and where `DerivedData` has them. */
const LINK_COUNTS: Readonly<Record<string, "contactsCount" | "dealsCount" | "ticketsCount">> = {
  contacts_count: "contactsCount",
  deals_count: "dealsCount",
  tickets_count: "ticketsCount"
}

/** A stored instant (a wire timestamp) as the `$date` object; null without a readable value. */
export const toMongoDate = (value: StoredValue | undefined): typeof MongoDateObject.Type | null => {
  if (value === undefined) return null
  // A stored datetime is a wire timestamp: read its milliseconds directly (most deals have one).
  const millis = typeof value === "string" ? storableWireMillis(value) : undefined
  if (millis !== undefined) return { $date: { $numberLong: String(millis) } }
  return Option.match(parseDateInput(value), { onNone: () => null, onSome: mongoDateOf })
}

const textOf = (value: StoredValue | undefined): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined

/** firstname, middlename, lastname — those with a value — joined by single spaces; null if none. */
export const deriveFullname = (values: StoredValues): string | null => {
  const parts = [values.firstname, values.middlename, values.lastname].map(textOf).filter((p) => p !== undefined)
  return parts.length === 0 ? null : parts.join(" ")
}

const derivedValue = (kind: ObjectKind, name: string, record: StoredRecord, derived: DerivedData): unknown => {
  if (kind === "contact" && name === "fullname") return deriveFullname(record.values)
  // Only a kind's built-in names are asked for, so a link's name means that kind's derived set.
  const linked = LINKED_IDS[name]
  if (linked !== undefined) return [...(derived[linked] ?? [])]
  const count = LINK_COUNTS[name]
  if (count !== undefined) return derived[count] ?? null
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
  // The definitions in `definitionsOf`'s order, without building that list for every record.
  for (const definition of BUILTIN_PROPERTIES[kind]) {
    const name = definition.internal_name
    const value = derivedValue(kind, name, record, derived)
    out[name] = value
    if (kind === "deal" && name === "forecast_amount") out.forcast_amount = value
  }
  out.created_at = formatWireTimestamp(record.created_at)
  out.updated_at = formatWireTimestamp(record.updated_at)
  // Custom names never take a fixed key's (they are reserved), so these come after all of them.
  for (const definition of custom) {
    const name = definition.internal_name
    if (isCustomPropertyOf(kind, definition) && Object.hasOwn(record.values, name)) {
      setOwnKey(out, name, record.values[name])
    }
  }
  return out as unknown as RecordProperties
}

/** A contact channel entry as shown (`created_at` as a `$date` object). */
export const channelJson = (channel: ContactChannel): typeof ContactChannelJson.Type => ({
  _id: channel._id,
  platform_third_party_id: channel.platform_third_party_id,
  contact_third_party_id: channel.contact_third_party_id,
  created_at: mongoDateOf(channel.created_at)
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

/** A contact's `{ properties, channels }` flattened: the properties at the top level, beside `channels`. */
export const flatContact = (contact: ContactRecordJson): FlatContactRecordJson => ({
  ...contact.properties,
  channels: contact.channels
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
