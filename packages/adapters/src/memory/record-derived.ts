/**
 * What a record shows and is listed by beyond the values it holds, derived from the account's
 * links as the PostgreSQL store derives it (record-codec.ts, list-statement.ts):
 *
 * - the `DerivedData` of its REST shape: a deal's linked contacts as summaries, oldest link first
 *   (ties by contact id); a contact's deal ids in id order and its channel entries, oldest first;
 *   a ticket's counts of linked contacts and deals;
 * - the values filters, search and ordering read (`listedValues`): the held built-ins, contact
 *   `fullname` and `deal_ids`, deal `contact_ids`, ticket `contacts_count` and `deals_count` (0 is
 *   a value), the custom values in their indexed form (record-values.ts) by internal_name, and
 *   `created_at` / `updated_at`.
 *
 * @module
 */
import {
  type ContactChannel,
  contactSummary,
  type DerivedData,
  deriveFullname,
  type ObjectKind,
  type PropertyDefinition,
  type RecordLinkName,
  type RecordWithDerived,
  type StoredRecord
} from "@wasl/core/Records"
import { DateTime } from "effect"
import type { MemoryLinkRow, MemoryRecordRow } from "./record-tables.ts"
import { indexedValue, valuesOf } from "./record-values.ts"

/** An account's links, indexed by side: built once per read, whatever the number of records. */
export interface LinkIndex {
  /** The links of `link` whose first side is `from`, oldest first. */
  readonly from: (link: RecordLinkName, from: string) => ReadonlyArray<MemoryLinkRow>
  /** The links of `link` whose second side is `to`, oldest first. */
  readonly to: (link: RecordLinkName, to: string) => ReadonlyArray<MemoryLinkRow>
}

const push = (map: Map<string, Array<MemoryLinkRow>>, key: string, row: MemoryLinkRow) => {
  const rows = map.get(key)
  if (rows === undefined) map.set(key, [row])
  else rows.push(row)
}

/** The index of an account's links (oldest first, as given). */
export const indexLinks = (links: ReadonlyArray<MemoryLinkRow>): LinkIndex => {
  const forward = new Map<string, Array<MemoryLinkRow>>()
  const backward = new Map<string, Array<MemoryLinkRow>>()
  for (const row of links) {
    push(forward, `${row.link}:${row.from}`, row)
    push(backward, `${row.link}:${row.to}`, row)
  }
  return {
    from: (link, from) => forward.get(`${link}:${from}`) ?? [],
    to: (link, to) => backward.get(`${link}:${to}`) ?? []
  }
}

const byId = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0

/** The ids on the other side of a record's links, in id order. */
const linkedIds = (rows: ReadonlyArray<MemoryLinkRow>, side: "from" | "to"): Array<string> =>
  rows.map((row) => row[side]).sort(byId)

/** A row as the core's `StoredRecord`, showing the custom values of `custom`. */
export const storedRecordOf = (row: MemoryRecordRow, custom: ReadonlyArray<PropertyDefinition>): StoredRecord => ({
  _id: row.id,
  account_id: row.accountId,
  values: valuesOf(row, custom),
  created_at: row.createdAt,
  updated_at: row.updatedAt
})

/** What of the account a derivation reads: its links, its contacts (a deal's summaries), a contact's channels. */
export interface DerivationContext {
  readonly links: LinkIndex
  readonly contact: (id: string) => MemoryRecordRow | undefined
  readonly channels: (contactId: string) => ReadonlyArray<ContactChannel>
}

const derivedOf = (row: MemoryRecordRow, context: DerivationContext): DerivedData => {
  switch (row.kind) {
    case "deal": {
      const links = [...context.links.from("deal_contact", row.id)].sort((a, b) =>
        DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) || byId(a.to, b.to)
      )
      return {
        contacts: links.flatMap((link) => {
          const contact = context.contact(link.to)
          return contact === undefined ? [] : [contactSummary(storedRecordOf(contact, []))]
        })
      }
    }
    case "contact":
      return { dealIds: linkedIds(context.links.to("deal_contact", row.id), "from"), channels: context.channels(row.id) }
    case "ticket":
      return {
        contactsCount: context.links.from("ticket_contact", row.id).length,
        dealsCount: context.links.from("ticket_deal", row.id).length
      }
    default:
      return {}
  }
}

/** A row as the port reads it: its values (custom ones of `custom`) and its derived data. */
export const recordWithDerived = (
  row: MemoryRecordRow,
  custom: ReadonlyArray<PropertyDefinition>,
  context: DerivationContext
): RecordWithDerived => ({ record: storedRecordOf(row, custom), derived: derivedOf(row, context) })

/** The values filters, search and ordering read of a record of `kind` (see the module comment). */
export const listedValues = (
  kind: ObjectKind,
  row: MemoryRecordRow,
  custom: ReadonlyArray<PropertyDefinition>,
  links: LinkIndex
): Record<string, unknown> => {
  const values: Record<string, unknown> = { ...row.builtin }
  switch (kind) {
    case "contact":
      values.fullname = deriveFullname(row.builtin)
      values.deal_ids = linkedIds(links.to("deal_contact", row.id), "from")
      break
    case "deal":
      values.contact_ids = linkedIds(links.from("deal_contact", row.id), "to")
      break
    case "ticket":
      values.contacts_count = links.from("ticket_contact", row.id).length
      values.deals_count = links.from("ticket_deal", row.id).length
      break
  }
  for (const d of custom) {
    const value = indexedValue(d.type, row.custom[d._id])
    if (value !== undefined) values[d.internal_name] = value
  }
  values.created_at = row.createdAt
  values.updated_at = row.updatedAt
  return values
}
