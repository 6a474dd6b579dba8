import { assert, describe, it } from "@effect/vitest"
import { DateTime, Option, Schema } from "effect"
import {
  BUILTIN_GROUPS,
  BUILTIN_ID_PREFIX,
  BUILTIN_PROPERTIES,
  builtinGroupId,
  builtinPropertyId,
  DERIVED_PROPERTIES,
  encodeProperty,
  encodePropertyGroup,
  filterablePropertiesOf,
  findBuiltinProperty,
  fnv1a64Hex,
  isBuiltinId,
  OBJECT_KINDS,
  type ObjectKind,
  optionNames,
  Property,
  PropertyGroup,
  type PropertyType,
  RESERVED_INTERNAL_NAMES
} from "../../src/Records.ts"
import { makeRecordId } from "../../src/Wire.ts"

/** Each kind's built-in properties, in order, with their types. */
const EXPECTED: { readonly [K in ObjectKind]: ReadonlyArray<readonly [string, PropertyType]> } = {
  contact: [
    ["firstname", "string"],
    ["lastname", "string"],
    ["middlename", "string"],
    ["fullname", "string"],
    ["email", "email"],
    ["phone", "phone"],
    ["birthdate", "datetime"],
    ["gender", "string"],
    ["languages", "string"],
    ["annual_revenue", "number"],
    ["preferred_language", "string"],
    ["timezone", "number"],
    ["relation_stage", "string"],
    ["original_source", "string"],
    ["original_source_drill_down_1", "string"],
    ["created_by", "number"],
    ["image", "url"],
    ["whatsapp_number", "phone"],
    ["whatsapp_opted_out", "boolean"],
    ["first_received_message_at", "datetime"],
    ["last_received_message_at", "datetime"],
    ["first_whatsapp_message_received_at", "datetime"],
    ["last_whatsapp_message_received_at", "datetime"],
    ["deal_ids", "multi_select"],
    ["company_ids", "multi_select"]
  ],
  company: [
    ["name", "string"],
    ["domain", "string"],
    ["industry", "string"],
    ["phone", "phone"],
    ["city", "string"],
    ["country", "string"],
    ["annual_revenue", "number"],
    ["contact_ids", "multi_select"],
    ["deal_ids", "multi_select"],
    ["ticket_ids", "multi_select"],
    ["contacts_count", "number"],
    ["deals_count", "number"],
    ["tickets_count", "number"]
  ],
  deal: [
    ["deal_name", "string"],
    ["amount", "number"],
    ["pipeline", "string"],
    ["deal_stage", "single_select"],
    ["close_date", "datetime"],
    ["forecast_amount", "number"],
    ["next_steps", "textarea"],
    ["company_ids", "multi_select"]
  ],
  ticket: [
    ["ticket_name", "string"],
    ["desc", "textarea"],
    ["category", "single_select"],
    ["source", "single_select"],
    ["pipeline", "string"],
    ["ticket_stage", "single_select"],
    ["contacts_count", "number"],
    ["deals_count", "number"],
    ["company_ids", "multi_select"]
  ],
  invoice: [
    ["invoice_number", "string"],
    ["amount", "number"],
    ["currency", "string"],
    ["status", "single_select"],
    ["due_date", "date"]
  ],
  product: [
    ["name", "string"],
    ["price", "number"],
    ["sku", "string"],
    ["description", "textarea"]
  ]
}

const READ_ONLY: { readonly [K in ObjectKind]: ReadonlyArray<string> } = {
  contact: [
    "fullname",
    "created_by",
    "first_received_message_at",
    "last_received_message_at",
    "first_whatsapp_message_received_at",
    "last_whatsapp_message_received_at",
    "deal_ids",
    "company_ids"
  ],
  company: ["contact_ids", "deal_ids", "ticket_ids", "contacts_count", "deals_count", "tickets_count"],
  deal: ["company_ids"],
  ticket: ["contacts_count", "deals_count", "company_ids"],
  invoice: [],
  product: []
}

const REQUIRED: { readonly [K in ObjectKind]: ReadonlyArray<string> } = {
  contact: [],
  company: ["name"],
  deal: ["deal_name"],
  ticket: ["ticket_name"],
  invoice: ["invoice_number"],
  product: ["name"]
}

const GROUPS: { readonly [K in ObjectKind]: string } = {
  contact: "contact_information",
  company: "company_information",
  deal: "deal_information",
  ticket: "ticket_information",
  invoice: "invoice_information",
  product: "product_information"
}

const ARABIC = /[\u0600-\u06FF]/

describe("built-in properties", () => {
  for (const kind of OBJECT_KINDS) {
    it(`${kind}: names, types, flags, group`, () => {
      const properties = BUILTIN_PROPERTIES[kind]
      assert.deepStrictEqual(
        properties.map((p) => `${p.internal_name}: ${p.type}`),
        EXPECTED[kind].map(([name, type]) => `${name}: ${type}`)
      )
      assert.deepStrictEqual(properties.filter((p) => p.readOnly).map((p) => p.internal_name), READ_ONLY[kind])
      assert.deepStrictEqual(properties.filter((p) => p.required).map((p) => p.internal_name), REQUIRED[kind])
      for (const p of properties) {
        assert.strictEqual(p.kind, kind)
        assert.isTrue(p.builtin)
        assert.isNull(p.account_id)
        assert.isNull(p.made_by)
        assert.isNull(p.desc)
        assert.strictEqual(p.group_id, BUILTIN_GROUPS[kind]._id)
        assert.isString(p.name.en)
        assert.match(p.name.ar!, ARABIC)
        assert.strictEqual(p.enum !== undefined, p.type === "single_select" || p.type === "multi_select")
        for (const option of p.enum ?? []) assert.match(option.ar, ARABIC)
        assert.strictEqual(findBuiltinProperty(kind, p.internal_name), p)
      }
      const group = BUILTIN_GROUPS[kind]
      assert.strictEqual(group.internal_name, GROUPS[kind])
      assert.isTrue(group.builtin)
      assert.isNull(group.account_id)
      assert.isNull(group.made_by)
      assert.match(group.name.ar!, ARABIC)
    })
  }

  it("has the select options of deal_stage, ticket category and source, invoice status", () => {
    const options = (kind: ObjectKind, name: string) => optionNames(findBuiltinProperty(kind, name)!)
    assert.deepStrictEqual(options("deal", "deal_stage"), [
      "appointment_scheduled",
      "qualified_to_buy",
      "presentation_scheduled",
      "decision_maker_bought_in",
      "contract_sent",
      "closed_won",
      "closed_lost"
    ])
    assert.deepStrictEqual(options("ticket", "category"), [
      "general_inquiry",
      "billing_issue",
      "technical_issue",
      "feature_request"
    ])
    assert.deepStrictEqual(options("ticket", "source"), [
      "source_manual",
      "source_email",
      "source_chat",
      "source_phone",
      "source_form"
    ])
    assert.deepStrictEqual(options("invoice", "status"), ["draft", "sent", "paid", "void"])
  })

  it("marks the derived ones", () => {
    assert.deepStrictEqual(DERIVED_PROPERTIES, {
      contact: ["fullname", "deal_ids", "company_ids"],
      company: ["contact_ids", "deal_ids", "ticket_ids", "contacts_count", "deals_count", "tickets_count"],
      deal: ["company_ids"],
      ticket: ["contacts_count", "deals_count", "company_ids"],
      invoice: [],
      product: []
    })
  })

  it("reserves the built-in names, the record keys, forcast_amount and the deal link filter", () => {
    assert.includeMembers([...RESERVED_INTERNAL_NAMES.deal], ["deal_name", "forcast_amount", "contact_ids", "created_at", "account_id"])
    assert.includeMembers([...RESERVED_INTERNAL_NAMES.contact], ["fullname", "deal_ids", "updated_at"])
    assert.notInclude(RESERVED_INTERNAL_NAMES.contact, "contact_ids")
    assert.notInclude(RESERVED_INTERNAL_NAMES.company, "deal_name")
  })

  it("are filterable with their options; a stage with any stage name of the account's pipelines", () => {
    const deal = filterablePropertiesOf("deal", [])
    assert.deepStrictEqual(deal.find((p) => p.internal_name === "deal_stage"), { internal_name: "deal_stage", type: "single_select" })
    assert.deepStrictEqual(filterablePropertiesOf("ticket", []).find((p) => p.internal_name === "category")?.options?.length, 4)
    assert.deepStrictEqual(filterablePropertiesOf("contact", []).find((p) => p.internal_name === "deal_ids"), {
      internal_name: "deal_ids",
      type: "multi_select"
    })
  })
})

describe("built-in ids", () => {
  const all = OBJECT_KINDS.flatMap((kind) => [BUILTIN_GROUPS[kind]._id, ...BUILTIN_PROPERTIES[kind].map((p) => p._id)])

  it("are 24 hex digits with the built-in prefix, pairwise distinct", () => {
    for (const id of all) {
      assert.match(id, /^ffffffff[0-9a-f]{16}$/)
      assert.isTrue(isBuiltinId(id))
    }
    assert.strictEqual(new Set(all).size, all.length)
  })

  it("are derived from kind and internal_name only (the same in every account)", () => {
    assert.strictEqual(builtinPropertyId("deal", "amount"), findBuiltinProperty("deal", "amount")!._id)
    assert.strictEqual(builtinGroupId("deal", "deal_information"), BUILTIN_GROUPS.deal._id)
    assert.notStrictEqual(builtinPropertyId("deal", "amount"), builtinPropertyId("invoice", "amount"))
    assert.notStrictEqual(builtinPropertyId("deal", "deal_information"), builtinGroupId("deal", "deal_information"))
    // FNV-1a 64 known answers.
    assert.strictEqual(fnv1a64Hex(""), "cbf29ce484222325")
    assert.strictEqual(fnv1a64Hex("a"), "af63dc4c8601ec8c")
    assert.strictEqual(BUILTIN_GROUPS.deal._id, `${BUILTIN_ID_PREFIX}${fnv1a64Hex("wasl:deal:group:deal_information")}`)
  })

  const Seconds = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 0xffff_fffe }))
  const Bytes = Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))).check(
    Schema.isBetweenLength(8, 8)
  )

  it.prop("never equal a generated id from a clock before 2106-02-07T06:28:15Z", [Seconds, Bytes], ([s, bytes]) => {
    const id = makeRecordId(s, Uint8Array.from(bytes))
    assert.isFalse(isBuiltinId(id))
  })
})

describe("wire shapes of properties and groups", () => {
  it("encodes a built-in property", () => {
    assert.deepStrictEqual(encodeProperty(findBuiltinProperty("invoice", "status")!), {
      _id: builtinPropertyId("invoice", "status"),
      type: "single_select",
      name: { ar: "الحالة", en: "Status" },
      desc: [],
      internal_name: "status",
      group_id: builtinGroupId("invoice", "invoice_information"),
      enum: [
        { en: "Draft", ar: "مسودة", internal_name: "draft" },
        { en: "Sent", ar: "مرسلة", internal_name: "sent" },
        { en: "Paid", ar: "مدفوعة", internal_name: "paid" },
        { en: "Void", ar: "ملغاة", internal_name: "void" }
      ],
      account_id: null,
      made_by: null,
      created_at: "2026-01-01T00:00:00.000000Z",
      updated_at: "2026-01-01T00:00:00.000000Z"
    } as unknown as typeof Property.Encoded)
    // No enum key for other types, and no domain fields.
    const amount = encodeProperty(findBuiltinProperty("deal", "amount")!)
    assert.deepStrictEqual(Object.keys(amount), [
      "_id",
      "type",
      "name",
      "desc",
      "internal_name",
      "group_id",
      "account_id",
      "made_by",
      "created_at",
      "updated_at"
    ])
  })

  it("encodes a built-in group", () => {
    assert.deepStrictEqual(encodePropertyGroup(BUILTIN_GROUPS.ticket), {
      _id: builtinGroupId("ticket", "ticket_information"),
      name: { ar: "معلومات التذكرة", en: "Ticket information" },
      desc: [],
      internal_name: "ticket_information",
      account_id: null,
      made_by: null,
      created_at: "2026-01-01T00:00:00.000000Z",
      updated_at: "2026-01-01T00:00:00.000000Z"
    } as unknown as typeof PropertyGroup.Encoded)
  })

  it("decodes a custom property and group, desc as object or []", () => {
    const property = Schema.decodeUnknownSync(Property)({
      _id: "65a1b2c3d4e5f60718293a4b",
      type: "string",
      name: { en: "Nickname" },
      desc: { ar: "وصف", en: "A description" },
      internal_name: "nickname",
      group_id: "65a1b2c3d4e5f60718293a4c",
      account_id: 3,
      made_by: 9,
      created_at: "2026-11-21T17:24:05.123456Z",
      updated_at: "2026-11-21T17:24:05.123456Z"
    })
    assert.deepStrictEqual(property.desc, { ar: "وصف", en: "A description" })
    assert.strictEqual(DateTime.toEpochMillis(property.created_at), Date.UTC(2026, 10, 21, 17, 24, 5, 123))
    const group = Schema.decodeUnknownSync(PropertyGroup)({
      _id: "65a1b2c3d4e5f60718293a4c",
      name: { ar: "مبيعات" },
      desc: [],
      internal_name: "group",
      account_id: 3,
      made_by: 9,
      created_at: "2026-11-21T17:24:05.123456Z",
      updated_at: "2026-11-21T17:24:05.123456Z"
    })
    assert.isNull(group.desc)
    assert.deepStrictEqual(encodePropertyGroup(group).desc, [])
    assert.isTrue(Option.isNone(Schema.decodeUnknownOption(PropertyGroup)({ ...group, desc: [1] })))
  })
})
