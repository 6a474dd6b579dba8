/**
 * What a record shows and is listed by beyond the values it holds, derived from the account's
 * links as the PostgreSQL store derives it (record-codec.ts, list-statement.ts):
 *
 * - the `DerivedData` of its REST shape: a deal's linked contacts as summaries, oldest link first
 *   (ties by contact id); a contact's deal ids in id order and its channel entries, oldest first;
 *   a ticket's counts of linked contacts and deals; a company's linked ids (in id order) and
 *   counts; the `company_ids` of contacts, deals and tickets (in id order);
 * - the values filters, search and ordering read (`listedValues`): the held built-ins, contact
 *   `fullname` and `deal_ids`, deal `contact_ids`, ticket `contact_ids`, `deal_ids`,
 *   `contacts_count` and `deals_count` (0 is a value), a company's linked ids and counts, the
 *   `company_ids` of contacts, deals and tickets, the custom values in their indexed form (record-values.ts) by internal_name, and
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

/** A company's linked ids, by the property showing them. */
const companyLinkedIds = (id: string, links: LinkIndex) => ({
  contact_ids: linkedIds(links.from("company_contact", id), "to"),
  deal_ids: linkedIds(links.from("company_deal", id), "to"),
  ticket_ids: linkedIds(links.from("company_ticket", id), "to")
})

/** The companies a contact, deal or ticket is linked to, in id order. */
const companyIdsOf = (kind: ObjectKind, id: string, links: LinkIndex): Array<string> => {
  switch (kind) {
    case "contact":
      return linkedIds(links.to("company_contact", id), "from")
    case "deal":
      return linkedIds(links.to("company_deal", id), "from")
    case "ticket":
      return linkedIds(links.to("company_ticket", id), "from")
    default:
      return []
  }
}

const derivedOf = (row: MemoryRecordRow, context: DerivationContext): DerivedData => {
  const companyIds = companyIdsOf(row.kind, row.id, context.links)
  switch (row.kind) {
    case "deal": {
      const links = [...context.links.from("deal_contact", row.id)].sort((a, b) =>
        DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) || byId(a.to, b.to)
      )
      return {
        contacts: links.flatMap((link) => {
          const contact = context.contact(link.to)
          return contact === undefined ? [] : [contactSummary(storedRecordOf(contact, []))]
        }),
        companyIds
      }
    }
    case "contact":
      return {
        dealIds: linkedIds(context.links.to("deal_contact", row.id), "from"),
        companyIds,
        channels: context.channels(row.id)
      }
    case "ticket":
      return {
        contactsCount: context.links.from("ticket_contact", row.id).length,
        dealsCount: context.links.from("ticket_deal", row.id).length,
        companyIds
      }
    case "company": {
      const linked = companyLinkedIds(row.id, context.links)
      return {
        contactIds: linked.contact_ids,
        dealIds: linked.deal_ids,
        ticketIds: linked.ticket_ids,
        contactsCount: linked.contact_ids.length,
        dealsCount: linked.deal_ids.length,
        ticketsCount: linked.ticket_ids.length
      }
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
    case "ticket": {
      const contactIds = linkedIds(links.from("ticket_contact", row.id), "to")
      const dealIds = linkedIds(links.from("ticket_deal", row.id), "to")
      Object.assign(values, { contact_ids: contactIds, deal_ids: dealIds })
      values.contacts_count = contactIds.length
      values.deals_count = dealIds.length
      break
    }
    case "company": {
      const linked = companyLinkedIds(row.id, links)
      Object.assign(values, linked)
      values.contacts_count = linked.contact_ids.length
      values.deals_count = linked.deal_ids.length
      values.tickets_count = linked.ticket_ids.length
      break
    }
  }
  if (kind === "contact" || kind === "deal" || kind === "ticket") values.company_ids = companyIdsOf(kind, row.id, links)
  for (const d of custom) {
    const value = indexedValue(d.type, row.custom[d._id])
    if (value !== undefined) values[d.internal_name] = value
  }
  values.created_at = row.createdAt
  values.updated_at = row.updatedAt
  return values
}
