/**
 * A record between the port's form and its row (migration 0004): values in, as the columns to set,
 * the `custom` jsonb and the custom values' side rows (`encodeWrite`); a row out, as the port's
 * `RecordWithDerived` (`decodeRecord`).
 *
 * Values are the core's stored form (`StoredValue`, value-validation.ts): strings (text, email,
 * phone, url, single_select; `YYYY-MM-DD` for a date; a wire timestamp for a datetime), finite
 * numbers, booleans, string arrays (multi_select). `null`, `""` and `[]` mean no value. Instants
 * are stored to the millisecond.
 *
 * @module
 */
import {
  type ContactChannel,
  type ContactSummaryJson,
  type DerivedData,
  type ObjectKind,
  type RecordWithDerived,
  storageOf,
  type StoredValue
} from "@wasl/core/Records"
import { formatWireTimestamp, parseDateInput, storableWireMillis } from "@wasl/core/Wire"
import { DateTime, Option } from "effect"
import { type BuiltinColumn, type RecordMapping, targetOf } from "./storage.ts"

/** A value as a write gives it: a stored value, or no value (`null`, `""`, `[]`, absent). */
export type WriteValue = StoredValue | null | undefined

// -----------------------------------------------------------------------------------------------
// Encoding values
// -----------------------------------------------------------------------------------------------

const defect = (message: string): never => {
  throw new Error(`records: ${message}`)
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

const isEmpty = (value: WriteValue): value is null | undefined | "" =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)

const instantOf = (name: string, value: unknown): DateTime.Utc => {
  // What the timestamp codec answers, and every stored datetime: read without the general path.
  const wireMillis = typeof value === "string" ? storableWireMillis(value) : undefined
  if (wireMillis !== undefined) return DateTime.makeUnsafe(wireMillis)
  if (typeof value === "string" || typeof value === "number") {
    const parsed = parseDateInput(value)
    if (Option.isSome(parsed)) return parsed.value
  }
  return defect(`${name}: not a date`)
}

const dayOf = (name: string, value: WriteValue): string => {
  if (typeof value === "string" && DAY.test(value)) return value
  return DateTime.formatIso(instantOf(name, value)).slice(0, 10)
}

/** A scalar's stored (JSON) form and its SQL parameter, by the property's type. */
const encodeScalar = (
  name: string,
  type: BuiltinColumn["type"],
  value: WriteValue
): { readonly stored: StoredValue; readonly param: string | number | boolean | Date } => {
  switch (storageOf(type)) {
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? { stored: value + 0, param: value + 0 }
        : defect(`${name}: not a finite number`)
    case "boolean":
      return typeof value === "boolean" ? { stored: value, param: value } : defect(`${name}: not a boolean`)
    case "datetime": {
      const instant = instantOf(name, value)
      return { stored: formatWireTimestamp(instant), param: DateTime.toDateUtc(instant) }
    }
    case "date": {
      const day = dayOf(name, value)
      return { stored: day, param: day }
    }
    case "text":
      return typeof value === "string" ? { stored: value, param: value } : defect(`${name}: not a string`)
  }
}

/** One custom value's side row, as `jsonb_to_recordset` reads it. */
export interface ValueRow {
  /** The custom property's id. */
  readonly property_id: string
  /** A number's value. */
  readonly num?: number
  /** A text's value (folded when written). */
  readonly txt?: string
  /** A date's or datetime's instant (a date at UTC midnight). */
  readonly ts?: string
  /** A boolean's value. */
  readonly bool?: boolean
  /** A multi_select's elements. */
  readonly elems?: ReadonlyArray<string>
}

/** What a write sets: built-in columns, the `custom` jsonb and the side rows of custom values. */
export interface EncodedWrite {
  /** Built-in columns to set (column → parameter; null clears). */
  readonly columns: Record<string, unknown>
  /** Custom values to set, by property id (the jsonb). */
  readonly customSet: Record<string, StoredValue>
  /** Custom property ids touched (set or cleared). */
  readonly customTouched: Array<string>
  /** The custom values' side rows to write. */
  readonly valueRows: Array<ValueRow>
}

/**
 * A record's values (or a patch of them) as a write: the built-in columns to set, the custom
 * values of the `custom` jsonb and their side rows. `null`, `""` and `[]` clear a value. A value
 * that does not fit its property's type is a defect: the core validated it.
 */
export const encodeWrite = (mapping: RecordMapping, values: Readonly<Record<string, WriteValue>>): EncodedWrite => {
  const out: EncodedWrite = { columns: {}, customSet: {}, customTouched: [], valueRows: [] }
  for (const [name, value] of Object.entries(values)) {
    const target = targetOf(mapping, name)
    if (target._tag === "Link") return defect(`${name} is derived from links`)
    if (target._tag === "Column") {
      if (!target.column.writable) defect(`${name} is not written from values`)
      out.columns[target.column.column] = isEmpty(value) ? null : encodeScalar(name, target.column.type, value).param
      continue
    }
    const property = target.property
    out.customTouched.push(property.id)
    if (isEmpty(value)) continue
    if (property.type === "multi_select") {
      if (!Array.isArray(value) || !value.every((e): e is string => typeof e === "string" && e !== "")) {
        defect(`${name}: not a list of option names`)
      }
      const elements = [...new Set(value as ReadonlyArray<string>)]
      out.customSet[property.id] = elements
      out.valueRows.push({ property_id: property.id, elems: elements })
      continue
    }
    const { stored } = encodeScalar(name, property.type, value)
    out.customSet[property.id] = stored
    switch (storageOf(property.type)) {
      case "number":
        out.valueRows.push({ property_id: property.id, num: stored as number })
        break
      case "boolean":
        out.valueRows.push({ property_id: property.id, bool: stored as boolean })
        break
      case "datetime":
        out.valueRows.push({ property_id: property.id, ts: stored as string })
        break
      case "date":
        out.valueRows.push({ property_id: property.id, ts: `${stored as string}T00:00:00Z` })
        break
      case "text":
        out.valueRows.push({ property_id: property.id, txt: stored as string })
        break
    }
  }
  return out
}


// -----------------------------------------------------------------------------------------------
// Decoding rows
// -----------------------------------------------------------------------------------------------

const wireOf = (value: unknown): string =>
  value instanceof Date ? formatWireTimestamp(DateTime.fromDateUnsafe(value)) : String(value)

const decodeColumn = (column: BuiltinColumn, value: unknown): StoredValue | undefined => {
  if (value === null || value === undefined) return undefined
  switch (storageOf(column.type)) {
    case "number":
      return Number(value)
    case "boolean":
      return Boolean(value)
    case "datetime":
      return wireOf(value)
    case "date":
      return value instanceof Date ? DateTime.formatIso(DateTime.fromDateUnsafe(value)).slice(0, 10) : String(value)
    case "text":
      return String(value)
  }
}

/** The `contact_channels` JSON of a contact row (selectContactChannels) as its entries; none when absent. */
const channelsOf = (value: unknown): ReadonlyArray<ContactChannel> =>
  Array.isArray(value)
    ? value.map((entry: { _id: string; platform_third_party_id: string; contact_third_party_id: string; created_at: string }) => ({
      _id: entry._id,
      platform_third_party_id: entry.platform_third_party_id,
      contact_third_party_id: entry.contact_third_party_id,
      created_at: instantOf("created_at", entry.created_at)
    }))
    : []

const countOf = (value: StoredValue | undefined): number | null => typeof value === "number" ? value : null

const idsOf = (value: StoredValue | undefined): ReadonlyArray<string> => Array.isArray(value) ? value : []

/**
 * What a record's REST shape derives from links, read with the row: a deal's linked contacts (as
 * summaries, oldest link first), a contact's deal ids and channel entries (oldest first), the
 * link counts of tickets and companies, a company's linked ids, the `company_ids` of contacts,
 * deals and tickets.
 */
const derivedOf = (
  kind: ObjectKind,
  derived: Readonly<Record<string, StoredValue>>,
  linkedContacts: unknown,
  contactChannels: unknown
): DerivedData => {
  const companyIds = idsOf(derived.company_ids)
  switch (kind) {
    case "deal":
      return { contacts: Array.isArray(linkedContacts) ? linkedContacts as ReadonlyArray<ContactSummaryJson> : [], companyIds }
    case "contact":
      return { dealIds: idsOf(derived.deal_ids), companyIds, channels: channelsOf(contactChannels) }
    case "ticket":
      return { contactsCount: countOf(derived.contacts_count), dealsCount: countOf(derived.deals_count), companyIds }
    case "company":
      return {
        contactIds: idsOf(derived.contact_ids),
        dealIds: idsOf(derived.deal_ids),
        ticketIds: idsOf(derived.ticket_ids),
        contactsCount: countOf(derived.contacts_count),
        dealsCount: countOf(derived.deals_count),
        ticketsCount: countOf(derived.tickets_count)
      }
    default:
      return {}
  }
}

/**
 * A row of the record's table (with the link sets and linked contacts selected beside it) as the
 * port's record: the stored values by internal_name and what its shape derives from links.
 */
export const decodeRecord = (mapping: RecordMapping, row: Record<string, unknown>): RecordWithDerived => {
  const values: Record<string, StoredValue> = {}
  const derived: Record<string, StoredValue> = {}
  let createdAt: DateTime.Utc | undefined
  let updatedAt: DateTime.Utc | undefined
  for (const column of mapping.storage.columns) {
    const raw = row[column.column]
    if (column.name === "created_at") createdAt = instantOf("created_at", wireOf(raw))
    else if (column.name === "updated_at") updatedAt = instantOf("updated_at", wireOf(raw))
    else {
      const value = decodeColumn(column, raw)
      if (value !== undefined) (column.derived ? derived : values)[column.name] = value
    }
  }
  const custom = (row.custom ?? {}) as Record<string, unknown>
  for (const property of mapping.custom) {
    const value = custom[property.id]
    if (value !== undefined && value !== null) values[property.internal_name] = value as StoredValue
  }
  for (const link of mapping.storage.links) {
    if (link.derived) derived[link.name] = (row[link.name] ?? []) as ReadonlyArray<string>
  }
  return {
    record: {
      _id: String(row.id),
      account_id: Number(row.account_id),
      values,
      created_at: createdAt!,
      updated_at: updatedAt!
    },
    derived: derivedOf(mapping.storage.kind, derived, row.linked_contacts, row.contact_channels)
  }
}
