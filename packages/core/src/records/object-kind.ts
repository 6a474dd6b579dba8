/**
 * The six object kinds of the records API (`OBJECT_KINDS`, `ObjectKind`): their path segments, the properties a list's `search`
 * looks in, the properties a create must carry, and the 72 webhook event names with the key each
 * event's body holds its object under.
 */
import { Option, Schema } from "effect"
import { OBJECT_KINDS, type ObjectKind } from "../object-kinds.ts"

export { OBJECT_KINDS, type ObjectKind, ObjectKindSchema } from "../object-kinds.ts"

// ---------------------------------------------------------------------------------------------
// Path segments
// ---------------------------------------------------------------------------------------------

/** The path segments of `/api/{kind}`, in the order of OBJECT_KINDS. */
export const OBJECT_PATHS = ["contacts", "companies", "deals", "tickets", "invoices", "products"] as const
/** The path segment of a kind's endpoints (`contacts`, `companies`, ...). */
export type ObjectPath = typeof OBJECT_PATHS[number]
/** A kind's path segment as a Schema. */
export const ObjectPath: Schema.Literals<typeof OBJECT_PATHS> = Schema.Literals(OBJECT_PATHS).annotate({
  identifier: "ObjectPath"
})

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

/** Whether a path segment is one of the six kinds' (`deals`: yes, `deal`: no). */
export const isObjectPath = (segment: string): segment is ObjectPath =>
  (OBJECT_PATHS as ReadonlyArray<string>).includes(segment)

/** Whether a name is one of the six object kinds (`deal`: yes, `deals`: no). */
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
 * The properties a list's `search` matches (a case-insensitive substring of any of them): the name
 * property, and for contacts also email, phone and whatsapp_number.
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
 * The built-in properties a create must carry and an update may not clear. Contacts have none: a
 * contact can be created empty (e.g. from an incoming message) and filled later.
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
// Events: `<kind>-<suffix>` names and the object key of their delivery body
// ---------------------------------------------------------------------------------------------

/**
 * The 12 event suffixes: a record's `created`, `updated`, `deleted`, then the same three for its
 * kind's custom properties, property groups and notes.
 */
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
/** An event suffix (`created`, ..., `note-deleted`). */
export type EventSuffix = typeof EVENT_SUFFIXES[number]

/** What an event is about: the record itself, a custom property, a property group or a note. */
export const EVENT_SUBJECTS = ["record", "property", "property_group", "note"] as const
/** What an event is about (`record`, `property`, `property_group`, `note`). */
export type EventSubject = typeof EVENT_SUBJECTS[number]

/** What happened to the subject of an event. */
export const EVENT_ACTIONS = ["created", "updated", "deleted"] as const
/** What happened to the subject of an event (`created`, `updated`, `deleted`). */
export type EventAction = typeof EVENT_ACTIONS[number]

/** An event name as a template type: a kind, a dash, a suffix (`deal-note-created`). */
export type EventNameString = `${ObjectKind}-${EventSuffix}`

/** All 72 event names, kind by kind (`contact-created`, ..., `product-note-deleted`). */
export const EVENT_NAMES: ReadonlyArray<EventNameString> = OBJECT_KINDS.flatMap((kind) =>
  EVENT_SUFFIXES.map((suffix) => `${kind}-${suffix}` as const)
)

/**
 * The events of the conversation with a contact, beyond the 72 of the records: a message received
 * from a contact, and a status (delivered, read, failed) of a message sent to one. A webhook gets
 * them only when it names them: no list of names stands for "all".
 */
export const MESSAGE_EVENT_NAMES = ["message-received", "message-status-updated"] as const
/** A message event name (`message-received`, `message-status-updated`). */
export type MessageEventName = typeof MESSAGE_EVENT_NAMES[number]

/** A restore event name: a kind and `-restored` (`deal-restored`). */
export type RestoredEventName = `${ObjectKind}-restored`

/**
 * The events of a record brought back from the trash, beyond the 72: `<kind>-restored`, carrying
 * the record as it is back. As with the message events, a webhook gets them only when it names them.
 */
export const RESTORED_EVENT_NAMES: ReadonlyArray<RestoredEventName> = OBJECT_KINDS.map((kind) => `${kind}-restored` as const)

/** Every name a webhook may subscribe to: the 72 record events, the message events, the restore events. */
export const WEBHOOK_EVENT_NAMES: ReadonlyArray<EventNameString | MessageEventName | RestoredEventName> = [
  ...EVENT_NAMES,
  ...MESSAGE_EVENT_NAMES,
  ...RESTORED_EVENT_NAMES
]

/** An event name as a Schema: one of the 72 record events or a message event. */
export const EventName: Schema.Literals<typeof WEBHOOK_EVENT_NAMES> = Schema.Literals(WEBHOOK_EVENT_NAMES).annotate({
  identifier: "EventName",
  description:
    "An object kind (contact, company, deal, ticket, invoice, product) and one of the 12 event suffixes, a message event (message-received, message-status-updated), or a kind and -restored (a record brought back from the trash)"
})
/** An event name: one of the 72 record events (`contact-created`, ...), a message event or a restore event. */
export type EventName = typeof EventName.Type
/** One of the 72 record event names (`contact-created`, ..., `product-note-deleted`). */
export type RecordEventName = EventNameString

const isMessageEventName = (name: EventName): name is MessageEventName =>
  (MESSAGE_EVENT_NAMES as ReadonlyArray<string>).includes(name)

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
export const eventName = (kind: ObjectKind, subject: EventSubject, action: EventAction): RecordEventName =>
  `${kind}${SUBJECT_SUFFIX[subject]}-${action}` as RecordEventName

/** An event name taken apart: `deal-property-group-updated` is deal, property_group, updated. */
export interface ParsedEventName {
  /** The object kind the event belongs to. */
  readonly kind: ObjectKind
  /** What the event is about: the record, a property, a property group or a note. */
  readonly subject: EventSubject
  /** What happened to it. */
  readonly action: EventAction
}

/** The parts of an event name (kinds hold no dash, so the kind is everything before the first). */
export const parseEventName = (name: RecordEventName): ParsedEventName => {
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
 * The key under which a webhook body holds the affected object: the kind for record events
 * (`deal`), followed by `_property`, `_property_group` or `_note` for the others (`deal_property`,
 * `contact_property_group`, `ticket_note`); `message` for the message events; the kind for the
 * restore events (`deal-restored` holds its `deal`).
 */
export const eventObjectKey = (name: EventName): string => {
  if (isMessageEventName(name)) return "message"
  if (name.endsWith("-restored")) return name.slice(0, -"-restored".length)
  const { kind, subject } = parseEventName(name as RecordEventName)
  return `${kind}${SUBJECT_KEY[subject]}`
}
