/** The six object kinds as the dashboard shows them. */
import type { Kind } from "../api/client"

export const KINDS: ReadonlyArray<Kind> = ["contacts", "companies", "deals", "tickets", "invoices", "products"]

export const isKind = (value: string | undefined): value is Kind => KINDS.includes(value as Kind)

/** The property that names a record of the kind (the one `search` looks in). */
export const NAME_PROPERTY: Readonly<Record<Kind, string>> = {
  contacts: "fullname",
  companies: "name",
  deals: "deal_name",
  tickets: "ticket_name",
  invoices: "invoice_number",
  products: "name"
}

/**
 * Built-in properties the service derives itself: shown, never offered in a form (the API would
 * refuse them with a 422).
 */
export const DERIVED = new Set([
  "fullname",
  "created_by",
  "deal_ids",
  "company_ids",
  "contact_ids",
  "ticket_ids",
  "contacts_count",
  "deals_count",
  "tickets_count",
  "forcast_amount"
])

/** A record as every list and page answers it: its property values, by internal_name. */
export type RecordValues = Readonly<Record<string, unknown>>
