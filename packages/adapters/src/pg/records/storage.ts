/**
 * Where each property of a record lives in the schema of migration 0004, and the adapter-side
 * mapping `internal_name → built-in column | custom property id | link set` that the list
 * statement (list-statement.ts) and `RecordRepositoryPg` work from.
 *
 * This is the whitelist: the only SQL identifiers the records adapter ever writes are the table and
 * column names below. Custom properties are addressed by their id, always bound as a parameter;
 * no internal_name, value or search text ever becomes SQL text.
 *
 * It repeats, on purpose, the small part of the core property model it needs (name, type, where
 * stored), so that the storage layer does not move with the core's REST model.
 *
 * @module
 */
import {
  isCustomPropertyOf,
  type ObjectKind,
  type PropertyDefinition,
  type PropertyType,
  storageOf
} from "@wasl/core/Records"

/** A built-in property held in a column of the kind's table. */
export interface BuiltinColumn {
  /** The property's internal_name. */
  readonly name: string
  /** The SQL column (whitelisted here). */
  readonly column: string
  /** The property's type. */
  readonly type: PropertyType
  /** Written from the record's values (false: generated, counted or bookkeeping). */
  readonly writable: boolean
  /** NULL when the record has no value (false: counters and timestamps, always present). */
  readonly nullable: boolean
  /** A derived value (contact fullname, ticket counts): shown, never written. */
  readonly derived: boolean
  /**
   * Text compared through `lower()` (free text). False for built-in single_selects: their values
   * are option names, lowercase identifiers (a CHECK in migration 0004), compared as they are.
   */
  readonly folded: boolean
}

/**
 * A set of record ids held in a link table: a link filter (deal `contact_ids`) or a derived
 * built-in (contact `deal_ids`, company `ticket_ids`, `company_ids`).
 */
export interface LinkSet {
  /** The property's internal_name (`contact_ids`, `deal_ids`). */
  readonly name: string
  /** The link table. */
  readonly table: string
  /** The column holding the record's own id. */
  readonly owner: string
  /** The column holding the linked ids (the set's elements). */
  readonly element: string
  /** Shown as a derived value of the record (contact `deal_ids`), or a filter only. */
  readonly derived: boolean
}

/** Search: the trigram-indexed expression and the exact texts it stands for. */
export interface SearchSpec {
  /** The indexed expression, as in migration 0004 (a column or `lower(column)`). */
  readonly indexed: string
  /** The columns whose folded text must contain the term (any of them). */
  readonly columns: ReadonlyArray<string>
  /** Whether `indexed` is itself a folded column (contacts' `search`) or `lower(<the one column>)`. */
  readonly generated: boolean
}

/** Where a kind's records are held: its table, columns, link sets and search. */
export interface KindStorage {
  /** The kind. */
  readonly kind: ObjectKind
  /** Its table. */
  readonly table: string
  /** Built-in columns, `created_at` and `updated_at` included. */
  readonly columns: ReadonlyArray<BuiltinColumn>
  /** The sets of linked ids a record of the kind has. */
  readonly links: ReadonlyArray<LinkSet>
  /** How the kind is searched. */
  readonly search: SearchSpec
}

const col = (
  name: string,
  type: PropertyType,
  options: { readonly column?: string; readonly derived?: boolean; readonly nullable?: boolean } = {}
): BuiltinColumn => ({
  name,
  column: options.column ?? name,
  type,
  writable: options.derived !== true,
  nullable: options.nullable ?? true,
  derived: options.derived === true,
  folded: storageOf(type) === "text" && type !== "single_select"
})

const TIMESTAMPS: ReadonlyArray<BuiltinColumn> = [
  { ...col("created_at", "datetime", { nullable: false }), writable: false },
  { ...col("updated_at", "datetime", { nullable: false }), writable: false }
]

const kindStorage = (
  kind: ObjectKind,
  table: string,
  columns: ReadonlyArray<BuiltinColumn>,
  search: SearchSpec,
  links: ReadonlyArray<LinkSet> = []
): KindStorage => ({ kind, table, columns: [...columns, ...TIMESTAMPS], links, search })

/** The `company_ids` a contact, deal or ticket shows: its companies, from their link table. */
const companyIds = (table: string, owner: string): LinkSet => ({
  name: "company_ids",
  table,
  owner,
  element: "company_id",
  derived: true
})

const nameSearch = (column: string): SearchSpec => ({ indexed: `lower(${column})`, columns: [column], generated: false })

/** The storage of each kind (migration 0004). */
export const KIND_STORAGE: { readonly [K in ObjectKind]: KindStorage } = {
  contact: kindStorage(
    "contact",
    "contacts",
    [
      col("firstname", "string"),
      col("lastname", "string"),
      col("middlename", "string"),
      col("fullname", "string", { derived: true }),
      col("email", "email"),
      col("phone", "phone"),
      col("birthdate", "datetime"),
      col("gender", "string"),
      col("languages", "string"),
      col("annual_revenue", "number"),
      col("preferred_language", "string"),
      col("timezone", "number"),
      col("relation_stage", "string"),
      col("original_source", "string"),
      col("original_source_drill_down_1", "string"),
      col("created_by", "number"),
      col("image", "url"),
      col("whatsapp_number", "phone"),
      col("whatsapp_opted_out", "boolean"),
      col("first_received_message_at", "datetime"),
      col("last_received_message_at", "datetime"),
      col("first_whatsapp_message_received_at", "datetime"),
      col("last_whatsapp_message_received_at", "datetime")
    ],
    { indexed: "search", columns: ["fullname", "email", "phone", "whatsapp_number"], generated: true },
    [
      { name: "deal_ids", table: "deal_contacts", owner: "contact_id", element: "deal_id", derived: true },
      companyIds("company_contacts", "contact_id")
    ]
  ),
  company: kindStorage(
    "company",
    "companies",
    [
      col("name", "string"),
      col("domain", "string"),
      col("industry", "string"),
      col("phone", "phone"),
      col("city", "string"),
      col("country", "string"),
      col("annual_revenue", "number"),
      col("contacts_count", "number", { derived: true, nullable: false }),
      col("deals_count", "number", { derived: true, nullable: false }),
      col("tickets_count", "number", { derived: true, nullable: false })
    ],
    nameSearch("name"),
    [
      { name: "contact_ids", table: "company_contacts", owner: "company_id", element: "contact_id", derived: true },
      { name: "deal_ids", table: "company_deals", owner: "company_id", element: "deal_id", derived: true },
      { name: "ticket_ids", table: "company_tickets", owner: "company_id", element: "ticket_id", derived: true }
    ]
  ),
  deal: kindStorage(
    "deal",
    "deals",
    [
      col("deal_name", "string"),
      col("amount", "number"),
      col("pipeline", "string"),
      col("deal_stage", "single_select"),
      col("close_date", "datetime"),
      col("forecast_amount", "number"),
      col("next_steps", "textarea")
    ],
    nameSearch("deal_name"),
    [
      { name: "contact_ids", table: "deal_contacts", owner: "deal_id", element: "contact_id", derived: false },
      companyIds("company_deals", "deal_id")
    ]
  ),
  ticket: kindStorage(
    "ticket",
    "tickets",
    [
      col("ticket_name", "string"),
      col("desc", "textarea", { column: "description" }),
      col("category", "single_select"),
      col("source", "single_select"),
      col("pipeline", "string"),
      col("ticket_stage", "single_select"),
      col("contacts_count", "number", { derived: true, nullable: false }),
      col("deals_count", "number", { derived: true, nullable: false })
    ],
    nameSearch("ticket_name"),
    [
      { name: "contact_ids", table: "ticket_contacts", owner: "ticket_id", element: "contact_id", derived: false },
      { name: "deal_ids", table: "ticket_deals", owner: "ticket_id", element: "deal_id", derived: false },
      companyIds("company_tickets", "ticket_id")
    ]
  ),
  invoice: kindStorage(
    "invoice",
    "invoices",
    [
      col("invoice_number", "string"),
      col("amount", "number"),
      col("currency", "string"),
      col("status", "single_select"),
      col("due_date", "date")
    ],
    nameSearch("invoice_number")
  ),
  product: kindStorage(
    "product",
    "products",
    [col("name", "string"), col("price", "number"), col("sku", "string"), col("description", "textarea")],
    nameSearch("name")
  )
}

/** The link tables between records and the kinds (and columns) on their two sides. */
export const LINKS: {
  readonly deal_contact: {
    readonly table: "deal_contacts"
    readonly from: readonly ["deal", "deal_id"]
    readonly to: readonly ["contact", "contact_id"]
  }
  readonly ticket_contact: {
    readonly table: "ticket_contacts"
    readonly from: readonly ["ticket", "ticket_id"]
    readonly to: readonly ["contact", "contact_id"]
  }
  readonly ticket_deal: {
    readonly table: "ticket_deals"
    readonly from: readonly ["ticket", "ticket_id"]
    readonly to: readonly ["deal", "deal_id"]
  }
  readonly company_contact: {
    readonly table: "company_contacts"
    readonly from: readonly ["company", "company_id"]
    readonly to: readonly ["contact", "contact_id"]
  }
  readonly company_deal: {
    readonly table: "company_deals"
    readonly from: readonly ["company", "company_id"]
    readonly to: readonly ["deal", "deal_id"]
  }
  readonly company_ticket: {
    readonly table: "company_tickets"
    readonly from: readonly ["company", "company_id"]
    readonly to: readonly ["ticket", "ticket_id"]
  }
} = {
  deal_contact: { table: "deal_contacts", from: ["deal", "deal_id"], to: ["contact", "contact_id"] },
  ticket_contact: { table: "ticket_contacts", from: ["ticket", "ticket_id"], to: ["contact", "contact_id"] },
  ticket_deal: { table: "ticket_deals", from: ["ticket", "ticket_id"], to: ["deal", "deal_id"] },
  company_contact: { table: "company_contacts", from: ["company", "company_id"], to: ["contact", "contact_id"] },
  company_deal: { table: "company_deals", from: ["company", "company_id"], to: ["deal", "deal_id"] },
  company_ticket: { table: "company_tickets", from: ["company", "company_id"], to: ["ticket", "ticket_id"] }
} as const satisfies Record<string, LinkSpec>

interface LinkSpec {
  readonly table: string
  /** The first kind and its column. */
  readonly from: readonly [ObjectKind, string]
  /** The second kind and its column. */
  readonly to: readonly [ObjectKind, string]
}

/** A link table a record of some kind is a side of, seen from that side (a trash move, a merge). */
export interface LinkSide {
  /** The link. */
  readonly link: LinkName
  /** Its table. */
  readonly table: string
  /** The column holding this side's id. */
  readonly own: string
  /** The other side's kind and column. */
  readonly otherKind: ObjectKind
  /** The column holding the other side's id. */
  readonly other: string
}

/** Every link table a record of the kind is a side of, seen from it. */
export const linkSidesOf = (kind: ObjectKind): ReadonlyArray<LinkSide> =>
  (Object.entries(LINKS) as ReadonlyArray<[LinkName, (typeof LINKS)[LinkName]]>).flatMap(([link, spec]) => [
    ...(spec.from[0] === kind ? [{ link, table: spec.table, own: spec.from[1], otherKind: spec.to[0], other: spec.to[1] }] : []),
    ...(spec.to[0] === kind ? [{ link, table: spec.table, own: spec.to[1], otherKind: spec.from[0], other: spec.from[1] }] : [])
  ])

/** The name of a link between records (`deal_contact`, `ticket_contact`, `company_deal`, …). */
export type LinkName = keyof typeof LINKS

// -----------------------------------------------------------------------------------------------
// The mapping
// -----------------------------------------------------------------------------------------------

/** A custom property of the kind, as the storage needs it. */
export interface CustomProperty {
  /** The property definition's `_id` (24 hex): the key of its values. */
  readonly id: string
  /** The property's name in bodies, filters and orders. */
  readonly internal_name: string
  /** The property's type: how its values are held and compared. */
  readonly type: PropertyType
}

/**
 * The custom properties of `kind` among an account's property definitions (the port's `custom`),
 * in the form the storage addresses them: by id, with their name and type.
 */
export const customPropertiesOf = (
  kind: ObjectKind,
  definitions: ReadonlyArray<PropertyDefinition>
): ReadonlyArray<CustomProperty> =>
  definitions
    .filter((d) => isCustomPropertyOf(kind, d))
    .map((d) => ({ id: d._id, internal_name: d.internal_name, type: d.type }))

/** Where a property named in a filter, an order or a body is held. */
export type PropertyTarget =
  | { readonly _tag: "Column"; readonly column: BuiltinColumn }
  | { readonly _tag: "Custom"; readonly property: CustomProperty }
  | { readonly _tag: "Link"; readonly link: LinkSet }

/** A kind's storage with its account's custom properties: where each name is held. */
export interface RecordMapping {
  /** The kind's storage. */
  readonly storage: KindStorage
  /** The account's custom properties of the kind. */
  readonly custom: ReadonlyArray<CustomProperty>
  /** Every name of the kind (built-in, custom, link set) and where it is held. */
  readonly targets: ReadonlyMap<string, PropertyTarget>
}

const PROPERTY_ID = /^[0-9a-f]{24}$/

/**
 * The mapping of a kind with its account's custom properties. A custom property whose name is a
 * built-in's, or whose id is not 24 hex, is a defect (the core's definitions never allow one).
 */
export const recordMapping = (kind: ObjectKind, custom: ReadonlyArray<CustomProperty>): RecordMapping => {
  const storage = KIND_STORAGE[kind]
  const targets = new Map<string, PropertyTarget>()
  for (const column of storage.columns) targets.set(column.name, { _tag: "Column", column })
  for (const link of storage.links) targets.set(link.name, { _tag: "Link", link })
  for (const property of custom) {
    if (targets.has(property.internal_name)) {
      throw new Error(`records: custom property "${property.internal_name}" of ${kind} shadows a built-in`)
    }
    if (!PROPERTY_ID.test(property.id)) throw new Error(`records: custom property id "${property.id}" is not 24 hex`)
    targets.set(property.internal_name, { _tag: "Custom", property })
  }
  return { storage, custom, targets }
}

/** The target of a name, or a defect: callers validate names against the same definitions. */
export const targetOf = (mapping: RecordMapping, name: string): PropertyTarget => {
  const target = mapping.targets.get(name)
  if (target === undefined) throw new Error(`records: "${name}" is no property of ${mapping.storage.kind}`)
  return target
}
