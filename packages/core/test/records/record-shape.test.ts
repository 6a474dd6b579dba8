import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Schema } from "effect"
import {
  BUILTIN_GROUPS,
  contactJson,
  contactSummary,
  dealJson,
  flatContact,
  deriveFullname,
  OBJECT_KINDS,
  type PropertyDefinition,
  RECORD_JSON,
  recordJson,
  type StoredRecord,
  toMongoDate,
  validateRecordCreate
} from "../../src/Records.ts"
import { RecordId } from "../../src/Wire.ts"

const ACCOUNT = 42
const CREATED = DateTime.makeUnsafe("2026-11-21T17:24:05.123Z")
const UPDATED = DateTime.makeUnsafe("2026-11-22T08:00:00.000Z")
const CLOSE_MS = Date.UTC(2026, 11, 31, 12, 0, 0)

const customProperty = (kind: "deal" | "contact" | "ticket", internal_name: string, type: PropertyDefinition["type"]): PropertyDefinition => ({
  _id: RecordId.make("65a1b2c3d4e5f60718293a00"),
  type,
  name: { en: internal_name },
  desc: null,
  internal_name,
  group_id: BUILTIN_GROUPS[kind]._id,
  account_id: ACCOUNT,
  made_by: 1,
  created_at: CREATED,
  updated_at: CREATED,
  kind,
  builtin: false,
  readOnly: false,
  required: false
})

const CUSTOM = [
  customProperty("deal", "priority", "number"),
  customProperty("deal", "region", "string"),
  customProperty("contact", "nickname", "string"),
  customProperty("ticket", "sla_hours", "number")
]

const record = (_id: string, values: Record<string, unknown>): StoredRecord => ({
  _id,
  account_id: ACCOUNT,
  values: values as StoredRecord["values"],
  created_at: CREATED,
  updated_at: UPDATED
})

const ANN = record("65a1b2c3d4e5f60718293a4c", { firstname: "Ann", lastname: "Lee", email: "ann@example.com" })

describe("deal shape", () => {
  const deal = record("65a1b2c3d4e5f60718293a4b", {
    deal_name: "Big deal",
    amount: 1200,
    pipeline: "default",
    deal_stage: "closed_won",
    close_date: "2026-12-31T12:00:00.000000Z",
    forecast_amount: 900,
    priority: 2
  })

  it("is { properties, contacts } with $date close_date and forcast_amount", () => {
    const json = dealJson(deal, CUSTOM, { contacts: [contactSummary(ANN)], companyIds: ["65a1b2c3d4e5f60718293a51"] })
    assert.strictEqual(
      JSON.stringify(json),
      JSON.stringify({
        properties: {
          _id: "65a1b2c3d4e5f60718293a4b",
          account_id: 42,
          deal_name: "Big deal",
          amount: 1200,
          pipeline: "default",
          deal_stage: "closed_won",
          close_date: { $date: { $numberLong: String(CLOSE_MS) } },
          forecast_amount: 900,
          forcast_amount: 900,
          next_steps: null,
          company_ids: ["65a1b2c3d4e5f60718293a51"],
          created_at: "2026-11-21T17:24:05.123000Z",
          updated_at: "2026-11-22T08:00:00.000000Z",
          priority: 2
        },
        contacts: [{ _id: "65a1b2c3d4e5f60718293a4c", account_id: 42, firstname: "Ann", lastname: "Lee" }]
      })
    )
  })

  it("shows built-ins without a value as null and omits custom ones without a value", () => {
    const json = dealJson(record("65a1b2c3d4e5f60718293a4d", { deal_name: "Small" }), CUSTOM)
    assert.deepStrictEqual(json, {
      properties: {
        _id: "65a1b2c3d4e5f60718293a4d",
        account_id: 42,
        deal_name: "Small",
        amount: null,
        pipeline: null,
        deal_stage: null,
        close_date: null,
        forecast_amount: null,
        forcast_amount: null,
        next_steps: null,
        company_ids: [],
        created_at: "2026-11-21T17:24:05.123000Z",
        updated_at: "2026-11-22T08:00:00.000000Z"
      },
      contacts: []
    })
  })

  it("takes flat full contact records as contacts (detach-contact)", () => {
    const full = flatContact(contactJson(ANN, CUSTOM))
    assert.deepStrictEqual(dealJson(deal, CUSTOM, { contacts: [full] }).contacts, [full])
  })

  it("flattens a contact: its properties at the top level, beside its channels", () => {
    const shown = contactJson(ANN, CUSTOM)
    assert.deepStrictEqual(flatContact(shown), { ...shown.properties, channels: shown.channels })
  })

  it.prop("close_date round-trips through the $date form", [Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 253_402_300_799_999 }))], ([ms]) => {
    const stored = Effect.runSync(validateRecordCreate("deal", { deal_name: "d", close_date: ms }, []))
    const shown = dealJson(record("65a1b2c3d4e5f60718293a4b", stored), []).properties.close_date
    assert.deepStrictEqual(shown, { $date: { $numberLong: String(ms) } })
    // The $date object is an accepted input, and gives the same stored value.
    assert.deepStrictEqual(Effect.runSync(validateRecordCreate("deal", { deal_name: "d", close_date: shown }, [])), stored)
  })

  it("writes no $date for a missing close_date", () => {
    assert.isNull(toMongoDate(undefined))
  })

  it("writes the $date of a close_date stored in another form, or none when it names no instant", () => {
    assert.deepStrictEqual(toMongoDate("2026-12-31"), { $date: { $numberLong: String(Date.UTC(2026, 11, 31)) } })
    assert.deepStrictEqual(toMongoDate(CLOSE_MS), { $date: { $numberLong: String(CLOSE_MS) } })
    assert.isNull(toMongoDate("not a date"))
  })

  it("shows a custom property named like a member of every object as its own key, in definition order", () => {
    const constructor = customProperty("deal", "constructor", "string")
    const json = dealJson(record("65a1b2c3d4e5f60718293a4d", { deal_name: "Odd", constructor: "x", priority: 1 }), [
      constructor,
      ...CUSTOM
    ])
    assert.deepStrictEqual(Object.keys(json.properties).slice(-4), ["created_at", "updated_at", "constructor", "priority"])
    assert.deepStrictEqual(Object.getOwnPropertyDescriptor(json.properties, "constructor")?.value, "x")
  })
})

describe("contact shape", () => {
  it("is { properties, channels } with fullname and deal_ids derived", () => {
    const contact = record("65a1b2c3d4e5f60718293a4e", {
      firstname: "Mary",
      middlename: "Ann",
      lastname: "Smith",
      phone: "+966501234567",
      birthdate: "1990-05-01T00:00:00.000000Z",
      created_by: 7,
      nickname: "M"
    })
    const json = contactJson(contact, CUSTOM, {
      dealIds: ["65a1b2c3d4e5f60718293a4b"],
      channels: [{ _id: "65a1b2c3d4e5f60718293a50", platform_third_party_id: "p1", contact_third_party_id: "966501234567", created_at: CREATED }]
    })
    assert.strictEqual(
      JSON.stringify(json),
      JSON.stringify({
        properties: {
          _id: "65a1b2c3d4e5f60718293a4e",
          account_id: 42,
          firstname: "Mary",
          lastname: "Smith",
          middlename: "Ann",
          fullname: "Mary Ann Smith",
          email: null,
          phone: "+966501234567",
          birthdate: "1990-05-01T00:00:00.000000Z",
          gender: null,
          languages: null,
          annual_revenue: null,
          preferred_language: null,
          timezone: null,
          relation_stage: null,
          original_source: null,
          original_source_drill_down_1: null,
          created_by: 7,
          image: null,
          whatsapp_number: null,
          whatsapp_opted_out: null,
          first_received_message_at: null,
          last_received_message_at: null,
          first_whatsapp_message_received_at: null,
          last_whatsapp_message_received_at: null,
          deal_ids: ["65a1b2c3d4e5f60718293a4b"],
          company_ids: [],
          created_at: "2026-11-21T17:24:05.123000Z",
          updated_at: "2026-11-22T08:00:00.000000Z",
          nickname: "M"
        },
        channels: [{
          _id: "65a1b2c3d4e5f60718293a50",
          platform_third_party_id: "p1",
          contact_third_party_id: "966501234567",
          created_at: { $date: { $numberLong: String(DateTime.toEpochMillis(CREATED)) } }
        }]
      })
    )
  })

  it("joins the names present by single spaces", () => {
    assert.strictEqual(deriveFullname({ firstname: "Ann", lastname: "Lee" }), "Ann Lee")
    assert.strictEqual(deriveFullname({ lastname: "Lee" }), "Lee")
    assert.strictEqual(deriveFullname({ firstname: "Ann", middlename: "", lastname: "Lee" }), "Ann Lee")
    assert.strictEqual(deriveFullname({ middlename: "B" }), "B")
    assert.isNull(deriveFullname({}))
    assert.isNull(deriveFullname({ email: "a@b.co" }))
  })

  const Name = Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\S(.*\S)?$/)))
  it.prop("fullname is first, middle, last joined by single spaces", [Schema.Struct({ firstname: Name, middlename: Name, lastname: Name })], ([names]) => {
    const parts = [names.firstname, names.middlename, names.lastname].filter((p) => p !== undefined)
    assert.strictEqual(deriveFullname(names), parts.length === 0 ? null : parts.join(" "))
  })

  it("stores a stale fullname never: it is derived from the names", () => {
    const json = contactJson(record("65a1b2c3d4e5f60718293a4e", { firstname: "New", fullname: "Old Name" }), [])
    assert.strictEqual(json.properties.fullname, "New")
    assert.deepStrictEqual(json.properties.deal_ids, [])
    assert.deepStrictEqual(json.channels, [])
  })

  it("summarises a contact for a deal", () => {
    assert.deepStrictEqual(contactSummary(record("65a1b2c3d4e5f60718293a4e", { firstname: "Ann" })), {
      _id: "65a1b2c3d4e5f60718293a4e",
      account_id: 42,
      firstname: "Ann",
      lastname: null
    })
  })
})

describe("ticket shape", () => {
  it("is { properties } with contacts_count and deals_count", () => {
    const ticket = record("65a1b2c3d4e5f60718293a4f", {
      ticket_name: "Cannot log in",
      desc: "Since Monday",
      category: "technical_issue",
      source: "source_email",
      pipeline: "default",
      ticket_stage: "new",
      sla_hours: 4
    })
    assert.strictEqual(
      JSON.stringify(recordJson("ticket", ticket, CUSTOM, { contactsCount: 2, dealsCount: 0 })),
      JSON.stringify({
        properties: {
          _id: "65a1b2c3d4e5f60718293a4f",
          account_id: 42,
          ticket_name: "Cannot log in",
          desc: "Since Monday",
          category: "technical_issue",
          source: "source_email",
          pipeline: "default",
          ticket_stage: "new",
          contacts_count: 2,
          deals_count: 0,
          company_ids: [],
          created_at: "2026-11-21T17:24:05.123000Z",
          updated_at: "2026-11-22T08:00:00.000000Z",
          sla_hours: 4
        }
      })
    )
    assert.isNull(recordJson("ticket", ticket, []).properties.deals_count)
  })
})

describe("company shape", () => {
  it("is { properties } with its linked ids and counts after the built-ins", () => {
    const company = record("65a1b2c3d4e5f60718293a51", { name: "Acme", city: "Riyadh" })
    const json = recordJson("company", company, [], {
      contactIds: ["65a1b2c3d4e5f60718293a4e"],
      dealIds: [],
      ticketIds: ["65a1b2c3d4e5f60718293a4f"],
      contactsCount: 1,
      dealsCount: 0,
      ticketsCount: 1
    })
    assert.strictEqual(
      JSON.stringify(json),
      JSON.stringify({
        properties: {
          _id: "65a1b2c3d4e5f60718293a51",
          account_id: 42,
          name: "Acme",
          domain: null,
          industry: null,
          phone: null,
          city: "Riyadh",
          country: null,
          annual_revenue: null,
          contact_ids: ["65a1b2c3d4e5f60718293a4e"],
          deal_ids: [],
          ticket_ids: ["65a1b2c3d4e5f60718293a4f"],
          contacts_count: 1,
          deals_count: 0,
          tickets_count: 1,
          created_at: "2026-11-21T17:24:05.123000Z",
          updated_at: "2026-11-22T08:00:00.000000Z"
        }
      })
    )
    assert.deepStrictEqual(recordJson("company", company, []).properties.contact_ids, [])
    assert.isNull(recordJson("company", company, []).properties.tickets_count)
  })
})

describe("other kinds", () => {
  it("are { properties }", () => {
    const invoice = record("65a1b2c3d4e5f60718293a50", { invoice_number: "INV-1", status: "paid", due_date: "2026-12-01" })
    assert.deepStrictEqual(recordJson("invoice", invoice, CUSTOM), {
      properties: {
        _id: "65a1b2c3d4e5f60718293a50",
        account_id: 42,
        invoice_number: "INV-1",
        amount: null,
        currency: null,
        status: "paid",
        due_date: "2026-12-01",
        created_at: "2026-11-21T17:24:05.123000Z",
        updated_at: "2026-11-22T08:00:00.000000Z"
      }
    })
  })

  it("every shape is accepted by its kind's Schema", () => {
    const samples = {
      contact: record("65a1b2c3d4e5f60718293a4e", { firstname: "Ann", deal_ids: [] }),
      company: record("65a1b2c3d4e5f60718293a51", { name: "Acme", annual_revenue: 5 }),
      deal: record("65a1b2c3d4e5f60718293a4b", { deal_name: "D", close_date: "2026-12-31T12:00:00.000000Z", priority: 1 }),
      ticket: record("65a1b2c3d4e5f60718293a4f", { ticket_name: "T" }),
      invoice: record("65a1b2c3d4e5f60718293a50", { invoice_number: "1" }),
      product: record("65a1b2c3d4e5f60718293a52", { name: "P", price: 9.5 })
    }
    for (const kind of OBJECT_KINDS) {
      const json = recordJson(kind, samples[kind], CUSTOM, {
        contacts: [contactSummary(ANN), flatContact(contactJson(ANN, []))],
        dealIds: ["65a1b2c3d4e5f60718293a4b"],
        contactsCount: 1,
        dealsCount: 1
      })
      assert.isTrue(Option.isSome(Schema.decodeUnknownOption(RECORD_JSON[kind])(json)), kind)
    }
    // A deal's flat full contact goes through whole, not cut down to a summary (the wire encodes with this Schema).
    const deal = recordJson("deal", samples.deal, CUSTOM, { contacts: [contactSummary(ANN), flatContact(contactJson(ANN, []))] })
    assert.deepStrictEqual(Schema.encodeUnknownSync(RECORD_JSON.deal)(deal), deal)
    // A wrong close_date form is not.
    const bad = { properties: { ...dealJson(samples.deal, []).properties, close_date: "2026-12-31" }, contacts: [] }
    assert.isTrue(Option.isNone(Schema.decodeUnknownOption(RECORD_JSON.deal)(bad)))
  })
})
