/**
 * The six object kinds of the records API (decisions §3): their path segments, the property a
 * list's `search` looks in (decisions §4), the properties a create must carry, and the 72 webhook
 * event names with their body keys (spec §6.2, §6.3).
 */
import { Option, Schema } from "effect"
import { OBJECT_KINDS, type ObjectKind } from "../auth/permission.ts"

/** A kind as a Schema (the type `ObjectKind` and the tuple `OBJECT_KINDS` live in permission.ts). */
export const ObjectKindSchema = Schema.Literals(OBJECT_KINDS).annotate({ identifier: "ObjectKind" })

// ---------------------------------------------------------------------------------------------
// Path segments
// ---------------------------------------------------------------------------------------------

/** The path segments of `/api/{kind}`, in the order of OBJECT_KINDS. */
export const OBJECT_PATHS = ["contacts", "companies", "deals", "tickets", "invoices", "products"] as const
export type ObjectPath = typeof OBJECT_PATHS[number]
export const ObjectPath = Schema.Literals(OBJECT_PATHS).annotate({ identifier: "ObjectPath" })

/** contacts → contact, companies → company, ... */
export const KIND_OF_PATH: { readonly [P in ObjectPath]: ObjectKind } = {
  contacts: "contact",
  companies: "company",
  deals: "deal",
  tickets: "ticket",
  invoices: "invoice",
  products: "product"
}

/** contact → contacts, company → companies, ... */
export const PATH_OF_KIND: { readonly [K in ObjectKind]: ObjectPath } = {
  contact: "contacts",
  company: "companies",
  deal: "deals",
  ticket: "tickets",
  invoice: "invoices",
  product: "products"
}

export const isObjectPath = (segment: string): segment is ObjectPath =>
  (OBJECT_PATHS as ReadonlyArray<string>).includes(segment)

export const isObjectKind = (name: string): name is ObjectKind => (OBJECT_KINDS as ReadonlyArray<string>).includes(name)

/** The kind a path segment names (`deals` → `deal`); none for any other segment. */
export const kindOfPath = (segment: string): Option.Option<ObjectKind> =>
  isObjectPath(segment) ? Option.some(KIND_OF_PATH[segment]) : Option.none()

// ---------------------------------------------------------------------------------------------
// Name, search and required properties
// ---------------------------------------------------------------------------------------------

/** The property that names a record of the kind (a contact's is the derived `fullname`). */
export const NAME_PROPERTY: { readonly [K in ObjectKind]: string } = {
  contact: "fullname",
  company: "name",
  deal: "deal_name",
  ticket: "ticket_name",
  invoice: "invoice_number",
  product: "name"
}

/**
 * The properties `search` matches, case-insensitive substring, any of them (decisions §4): the
 * name property, and for contacts also email, phone and whatsapp_number.
 */
export const SEARCH_PROPERTIES: { readonly [K in ObjectKind]: ReadonlyArray<string> } = {
  contact: ["fullname", "email", "phone", "whatsapp_number"],
  company: ["name"],
  deal: ["deal_name"],
  ticket: ["ticket_name"],
  invoice: ["invoice_number"],
  product: ["name"]
}

/**
 * The built-in properties a create must carry (decisions §3) and an update may not clear. Contacts
 * have none: a contact can be created empty (e.g. from an incoming message) and filled later.
 */
export const REQUIRED_ON_CREATE: { readonly [K in ObjectKind]: ReadonlyArray<string> } = {
  contact: [],
  company: ["name"],
  deal: ["deal_name"],
  ticket: ["ticket_name"],
  invoice: ["invoice_number"],
  product: ["name"]
}

// ---------------------------------------------------------------------------------------------
// Events (spec §6.2, §6.3)
// ---------------------------------------------------------------------------------------------

/** The 12 suffixes of spec §6.2, in its order. */
export const EVENT_SUFFIXES = [
  "created",
  "updated",
  "deleted",
  "property-created",
  "property-updated",
  "property-deleted",
  "property-group-created",
  "property-group-updated",
  "property-group-deleted",
  "note-created",
  "note-updated",
  "note-deleted"
] as const
export type EventSuffix = typeof EVENT_SUFFIXES[number]

/** What an event is about: the record itself, a custom property, a property group or a note. */
export const EVENT_SUBJECTS = ["record", "property", "property_group", "note"] as const
export type EventSubject = typeof EVENT_SUBJECTS[number]

export const EVENT_ACTIONS = ["created", "updated", "deleted"] as const
export type EventAction = typeof EVENT_ACTIONS[number]

export type EventNameString = `${ObjectKind}-${EventSuffix}`

/** All 72 event names, kind by kind (`contact-created`, ..., `product-note-deleted`). */
export const EVENT_NAMES: ReadonlyArray<EventNameString> = OBJECT_KINDS.flatMap((kind) =>
  EVENT_SUFFIXES.map((suffix) => `${kind}-${suffix}` as const)
)

export const EventName = Schema.Literals(EVENT_NAMES).annotate({
  identifier: "EventName",
  description: "An object kind (contact, company, deal, ticket, invoice, product) and one of the 12 event suffixes"
})
export type EventName = typeof EventName.Type

const SUBJECT_SUFFIX: { readonly [S in EventSubject]: string } = {
  record: "",
  property: "-property",
  property_group: "-property-group",
  note: "-note"
}

const SUBJECT_KEY: { readonly [S in EventSubject]: string } = {
  record: "",
  property: "_property",
  property_group: "_property_group",
  note: "_note"
}

/** `eventName("deal", "property_group", "updated")` → `deal-property-group-updated`. */
export const eventName = (kind: ObjectKind, subject: EventSubject, action: EventAction): EventName =>
  `${kind}${SUBJECT_SUFFIX[subject]}-${action}` as EventName

export interface ParsedEventName {
  readonly kind: ObjectKind
  readonly subject: EventSubject
  readonly action: EventAction
}

/** The parts of an event name (kinds hold no dash, so the kind is everything before the first). */
export const parseEventName = (name: EventName): ParsedEventName => {
  const dash = name.indexOf("-")
  const kind = name.slice(0, dash) as ObjectKind
  const suffix = name.slice(dash + 1)
  const last = suffix.lastIndexOf("-")
  const action = (last < 0 ? suffix : suffix.slice(last + 1)) as EventAction
  const rest = last < 0 ? "" : `-${suffix.slice(0, last)}`
  const subject = EVENT_SUBJECTS.find((s) => SUBJECT_SUFFIX[s] === rest)!
  return { kind, subject, action }
}

/**
 * The key of the affected record in a delivery body (spec §6.3): the object name for record
 * events (`deal`), followed by `_property`, `_property_group` or `_note` for the others
 * (`deal_property`, `contact_property_group`, `ticket_note`).
 */
export const eventObjectKey = (name: EventName): string => {
  const { kind, subject } = parseEventName(name)
  return `${kind}${SUBJECT_KEY[subject]}`
}
