/**
 * The six object kinds, which permissions name (`deal-update`) as well as the records: here, below
 * both, so that `auth/` does not import from `records/`. `records/object-kind.ts` offers them with
 * their paths, search properties and events.
 */
import { Schema } from "effect"

/** The six kinds of record: contacts, companies, deals, tickets, invoices and products. */
export const OBJECT_KINDS = ["contact", "company", "deal", "ticket", "invoice", "product"] as const
/** A kind of record (`contact`, `company`, `deal`, `ticket`, `invoice`, `product`). */
export type ObjectKind = typeof OBJECT_KINDS[number]

/** An object kind (`contact`, `company`, `deal`, `ticket`, `invoice`, `product`) as a Schema. */
export const ObjectKindSchema: Schema.Literals<typeof OBJECT_KINDS> = Schema.Literals(OBJECT_KINDS).annotate({
  identifier: "ObjectKind"
})
