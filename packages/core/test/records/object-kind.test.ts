import { assert, describe, it } from "@effect/vitest"
import { Option, Schema } from "effect"
import {
  EVENT_ACTIONS,
  EVENT_NAMES,
  EVENT_SUBJECTS,
  EVENT_SUFFIXES,
  EventName,
  eventName,
  eventObjectKey,
  KIND_OF_PATH,
  kindOfPath,
  NAME_PROPERTY,
  OBJECT_KINDS,
  OBJECT_PATHS,
  ObjectKindSchema,
  parseEventName,
  PATH_OF_KIND,
  REQUIRED_ON_CREATE,
  SEARCH_PROPERTIES
} from "../../src/Records.ts"

describe("object kinds", () => {
  it("maps path segments to kinds and back", () => {
    assert.deepStrictEqual(KIND_OF_PATH, {
      contacts: "contact",
      companies: "company",
      deals: "deal",
      tickets: "ticket",
      invoices: "invoice",
      products: "product"
    })
    for (const path of OBJECT_PATHS) assert.strictEqual(PATH_OF_KIND[KIND_OF_PATH[path]], path)
    for (const kind of OBJECT_KINDS) assert.deepStrictEqual(kindOfPath(PATH_OF_KIND[kind]), Option.some(kind))
  })

  it.prop("no other segment names a kind", [Schema.String], ([segment]) => {
    if ((OBJECT_PATHS as ReadonlyArray<string>).includes(segment)) return
    assert.isTrue(Option.isNone(kindOfPath(segment)))
  })

  it("decodes kinds with its Schema", () => {
    assert.strictEqual(Schema.decodeUnknownSync(ObjectKindSchema)("deal"), "deal")
    assert.isTrue(Option.isNone(Schema.decodeUnknownOption(ObjectKindSchema)("deals")))
  })

  it("names the search and required properties", () => {
    assert.deepStrictEqual(SEARCH_PROPERTIES, {
      contact: ["fullname", "email", "phone", "whatsapp_number"],
      company: ["name"],
      deal: ["deal_name"],
      ticket: ["ticket_name"],
      invoice: ["invoice_number"],
      product: ["name"]
    })
    assert.strictEqual(NAME_PROPERTY.deal, "deal_name")
    assert.strictEqual(NAME_PROPERTY.contact, "fullname")
    assert.deepStrictEqual(REQUIRED_ON_CREATE, {
      contact: [],
      company: ["name"],
      deal: ["deal_name"],
      ticket: ["ticket_name"],
      invoice: ["invoice_number"],
      product: ["name"]
    })
  })
})

describe("event names", () => {
  it("are 72 distinct names: 6 kinds × 12 suffixes", () => {
    assert.strictEqual(EVENT_SUFFIXES.length, 12)
    assert.strictEqual(EVENT_NAMES.length, 72)
    assert.strictEqual(new Set(EVENT_NAMES).size, 72)
    for (const kind of OBJECT_KINDS) {
      for (const suffix of EVENT_SUFFIXES) assert.include(EVENT_NAMES, `${kind}-${suffix}`)
    }
  })

  it("are a Schema literal union", () => {
    const decode = Schema.decodeUnknownOption(EventName)
    assert.deepStrictEqual(decode("deal-property-group-updated"), Option.some("deal-property-group-updated"))
    for (const bad of ["deal", "deals-created", "deal-property-group", "webhook-validation", "Deal-created", 3]) {
      assert.isTrue(Option.isNone(decode(bad)), String(bad))
    }
  })

  it.prop("no other string is an event name", [Schema.String], ([s]) => {
    if ((EVENT_NAMES as ReadonlyArray<string>).includes(s)) return
    assert.isTrue(Option.isNone(Schema.decodeUnknownOption(EventName)(s)))
  })

  it("carry their body's object key: the kind, then _property, _property_group or _note", () => {
    const cases: ReadonlyArray<readonly [EventName, string]> = [
      ["contact-created", "contact"],
      ["company-updated", "company"],
      ["deal-deleted", "deal"],
      ["invoice-created", "invoice"],
      ["product-updated", "product"],
      ["ticket-deleted", "ticket"],
      ["contact-property-created", "contact_property"],
      ["ticket-property-updated", "ticket_property"],
      ["deal-property-deleted", "deal_property"],
      ["contact-property-group-created", "contact_property_group"],
      ["deal-property-group-updated", "deal_property_group"],
      ["product-property-group-deleted", "product_property_group"],
      ["contact-note-created", "contact_note"],
      ["deal-note-updated", "deal_note"],
      ["invoice-note-deleted", "invoice_note"]
    ]
    for (const [name, key] of cases) assert.strictEqual(eventObjectKey(name), key, name)
  })

  it("build and parse back for every kind, subject and action", () => {
    const built = new Set<string>()
    for (const kind of OBJECT_KINDS) {
      for (const subject of EVENT_SUBJECTS) {
        for (const action of EVENT_ACTIONS) {
          const name = eventName(kind, subject, action)
          built.add(name)
          assert.deepStrictEqual(parseEventName(name), { kind, subject, action })
          const suffix = subject === "record" ? "" : `_${subject}`
          assert.strictEqual(eventObjectKey(name), `${kind}${suffix}`)
        }
      }
    }
    assert.deepStrictEqual([...built].sort(), [...EVENT_NAMES].sort())
  })
})
