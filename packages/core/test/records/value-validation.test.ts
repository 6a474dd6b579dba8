import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, DateTime, Effect, Exit, Schema } from "effect"
import { type ValidationFailed } from "../../src/errors.ts"
import {
  applyRecordPatch,
  BUILTIN_GROUPS,
  convertValuesForDefinition,
  type ObjectKind,
  type PropertyDefinition,
  type PropertyType,
  type StoredValue,
  validatePropertyValue,
  validateRecordCreate,
  validateRecordUpdate
} from "../../src/Records.ts"
import { laravelTrim, RecordId } from "../../src/Wire.ts"

const OPTIONS = ["gold", "silver", "bronze", "platinum_plus"]
const AT = DateTime.makeUnsafe(Date.UTC(2026, 0, 2))

let counter = 0
const custom = (
  internal_name: string,
  type: PropertyType,
  options?: ReadonlyArray<string>,
  kind: ObjectKind = "deal"
): PropertyDefinition => ({
  _id: RecordId.make((counter++).toString(16).padStart(24, "0")),
  type,
  name: { en: internal_name },
  desc: null,
  internal_name,
  group_id: BUILTIN_GROUPS[kind]._id,
  ...(options === undefined ? {} : { enum: options.map((o) => ({ en: o, ar: o, internal_name: o })) }),
  account_id: 1,
  made_by: 1,
  created_at: AT,
  updated_at: AT,
  kind,
  builtin: false,
  readOnly: false,
  required: false
})

const DEF = {
  string: custom("x_string", "string"),
  textarea: custom("x_textarea", "textarea"),
  number: custom("x_number", "number"),
  boolean: custom("x_boolean", "boolean"),
  date: custom("x_date", "date"),
  datetime: custom("x_datetime", "datetime"),
  single_select: custom("x_single", "single_select", OPTIONS),
  multi_select: custom("x_multi", "multi_select", OPTIONS),
  email: custom("x_email", "email"),
  phone: custom("x_phone", "phone"),
  url: custom("x_url", "url")
} as const
const CUSTOM = Object.values(DEF)

const failureOf = <A>(effect: Effect.Effect<A, ValidationFailed>): ValidationFailed => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isSuccess(exit)) return assert.fail(`expected a failure, got ${JSON.stringify(exit.value)}`)
  return Effect.runSync(Effect.flip(effect))
}
const errorsOf = <A>(effect: Effect.Effect<A, ValidationFailed>) => failureOf(effect).errors

/** The stored form of one value, checked through the record body as well. */
const normalise = (definition: PropertyDefinition, raw: unknown): StoredValue | null => {
  const value = Effect.runSync(validatePropertyValue(definition, raw))
  const patch = Effect.runSync(validateRecordUpdate("deal", { [definition.internal_name]: raw }, CUSTOM))
  assert.deepStrictEqual(patch, { [definition.internal_name]: value })
  return value
}

/** Valid: accepted, and the stored form validates to itself. */
const assertValid = (definition: PropertyDefinition, raw: unknown, expected?: StoredValue | null) => {
  const value = normalise(definition, raw)
  if (expected !== undefined) assert.deepStrictEqual(value, expected)
  if (value !== null) assert.deepStrictEqual(normalise(definition, value), value)
  return value
}

/** Invalid: refused with exactly these keys, in the body too. */
const assertInvalid = (definition: PropertyDefinition, raw: unknown, keys = [definition.internal_name]) => {
  assert.deepStrictEqual(Object.keys(errorsOf(validatePropertyValue(definition, raw))), keys)
  assert.deepStrictEqual(
    Object.keys(errorsOf(validateRecordUpdate("deal", { [definition.internal_name]: raw }, CUSTOM))),
    keys
  )
}

const messageOf = (definition: PropertyDefinition, raw: unknown) =>
  failureOf(validatePropertyValue(definition, raw)).message

const Anything = Schema.Union([Schema.String, Schema.Finite, Schema.Boolean, Schema.Null])
const NotText = Schema.Union([
  Schema.Finite,
  Schema.Boolean,
  Schema.Array(Schema.String),
  Schema.Struct({ a: Schema.String })
])

// The years 0001–9999: four-digit years, and no year 0000 (PostgreSQL has none).
const MIN_MS = -62_135_596_800_000
const MAX_MS = 253_402_300_799_999
const EpochMillis = Schema.Int.check(Schema.isBetween({ minimum: MIN_MS, maximum: MAX_MS }))
const OutOfRange = Schema.Union([
  Schema.Int.check(Schema.isBetween({ minimum: MAX_MS + 1, maximum: 8.64e15 })),
  Schema.Int.check(Schema.isBetween({ minimum: -8.64e15, maximum: MIN_MS - 1 }))
])
const iso = (ms: number) => new Date(ms).toISOString()
const dateInputs = (ms: number): ReadonlyArray<unknown> => [
  ms,
  iso(ms),
  iso(ms).replace("Z", "+00:00"),
  { $date: { $numberLong: String(ms) } }
]

describe("string and textarea", () => {
  for (const definition of [DEF.string, DEF.textarea]) {
    it.prop(`${definition.type}: any string is kept, trimmed; blank clears`, [Schema.String], ([s]) => {
      const trimmed = laravelTrim(s)
      assertValid(definition, s, trimmed === "" ? null : trimmed)
    })

    it.prop(`${definition.type}: anything else is refused`, [NotText], ([v]) => {
      if (Array.isArray(v) && v.length === 0) return
      assertInvalid(definition, v)
      assert.strictEqual(messageOf(definition, v), `The ${definition.internal_name.replace("_", " ")} field must be a string.`)
    })

    it(`${definition.type}: at most 65,535 characters`, () => {
      assertValid(definition, "x".repeat(65_535))
      assertValid(definition, "😀".repeat(65_535))
      assertInvalid(definition, "x".repeat(65_536))
      assert.strictEqual(
        messageOf(definition, "x".repeat(65_536)),
        `The ${definition.internal_name.replace("_", " ")} field must not be greater than 65535 characters.`
      )
    })
  }
})

describe("number", () => {
  it.prop("finite numbers are kept (-0 as 0)", [Schema.Finite], ([n]) => {
    assertValid(DEF.number, n, n + 0)
  })

  it.prop("numeric strings are read as numbers", [Schema.Finite], ([n]) => {
    assertValid(DEF.number, String(n), n + 0)
    assertValid(DEF.number, ` ${n} `, n + 0)
  })

  it("accepts Laravel's numeric forms", () => {
    assertValid(DEF.number, "12.5", 12.5)
    assertValid(DEF.number, "-3", -3)
    assertValid(DEF.number, "1e3", 1000)
    assertValid(DEF.number, ".5", 0.5)
    assertValid(DEF.number, "", null)
  })

  it.prop("text that is not a number is refused", [Schema.String.check(Schema.isPattern(/[g-zG-Z]/))], ([s]) => {
    if (laravelTrim(s) === "") return
    assertInvalid(DEF.number, s)
    assert.strictEqual(messageOf(DEF.number, s), "The x number field must be a number.")
  })

  it("refuses booleans, lists, objects, overflow and hex", () => {
    for (const v of [true, false, ["1"], { n: 1 }, "1e400", "0x1A", "1,5", "Infinity", "NaN"]) assertInvalid(DEF.number, v)
  })
})

describe("boolean", () => {
  const Truthy = Schema.Literals([true, 1, "1", "true"])
  const Falsy = Schema.Literals([false, 0, "0", "false"])

  it.prop("true, 1, \"1\", \"true\" are true", [Truthy], ([v]) => {
    assertValid(DEF.boolean, v, true)
  })

  it.prop("false, 0, \"0\", \"false\" are false", [Falsy], ([v]) => {
    assertValid(DEF.boolean, v, false)
  })

  it.prop("other strings and numbers are refused", [Schema.Union([Schema.String, Schema.Finite])], ([v]) => {
    const s = typeof v === "string" ? laravelTrim(v) : v
    if (s === "" || [0, 1, "0", "1", "true", "false"].includes(s)) return
    assertInvalid(DEF.boolean, v)
    assert.strictEqual(messageOf(DEF.boolean, v), "The x boolean field must be true or false.")
  })
})

describe("date", () => {
  it.prop("every input form gives the UTC day as YYYY-MM-DD", [EpochMillis], ([ms]) => {
    for (const input of dateInputs(ms)) assertValid(DEF.date, input, iso(ms).slice(0, 10))
  })

  it("reads an offset as its UTC instant", () => {
    assertValid(DEF.date, "2026-05-01T23:30:00-05:00", "2026-05-02")
    assertValid(DEF.date, "2026-05-01", "2026-05-01")
    assertValid(DEF.date, "0001-01-01", "0001-01-01")
    assertInvalid(DEF.date, "0000-01-01")
    assertInvalid(DEF.date, "0000-12-31T23:59:59.999Z")
    assertValid(DEF.date, "9999-12-31T23:59:59.999Z", "9999-12-31")
  })

  it.prop("instants outside the years 0001–9999 are refused", [OutOfRange], ([ms]) => {
    assertInvalid(DEF.date, ms)
    assertInvalid(DEF.date, { $date: { $numberLong: String(ms) } })
  })

  it.prop("text that is not a date is refused", [Schema.String.check(Schema.isPattern(/[g-zG-Y]/))], ([s]) => {
    if (laravelTrim(s) === "") return
    assertInvalid(DEF.date, s)
    assert.strictEqual(messageOf(DEF.date, s), "The x date field must be a valid date.")
  })

  it("refuses impossible days, digit strings, booleans and other objects", () => {
    for (const v of ["2026-02-30", "2026-13-01", "20260101", true, { $date: 5 }, { date: "2026-01-01" }, [2026, 1, 1]]) {
      assertInvalid(DEF.date, v)
    }
  })
})

describe("datetime", () => {
  it.prop("every input form gives the instant as a wire timestamp", [EpochMillis], ([ms]) => {
    for (const input of dateInputs(ms)) assertValid(DEF.datetime, input, `${iso(ms).slice(0, 23)}000Z`)
  })

  it("keeps milliseconds, drops finer digits", () => {
    assertValid(DEF.datetime, "2026-11-21T17:24:05.123456Z", "2026-11-21T17:24:05.123000Z")
    assertValid(DEF.datetime, "2026-11-21T20:24:05+03:00", "2026-11-21T17:24:05.000000Z")
    assertValid(DEF.datetime, "2026-11-21", "2026-11-21T00:00:00.000000Z")
  })

  it.prop("instants outside the years 0001–9999 are refused", [OutOfRange], ([ms]) => {
    assertInvalid(DEF.datetime, ms)
  })

  it.prop("text that is not a date is refused", [Schema.String.check(Schema.isPattern(/[g-zG-Y]/))], ([s]) => {
    if (laravelTrim(s) === "") return
    assertInvalid(DEF.datetime, s)
  })
})

describe("single_select", () => {
  it.prop("an option is kept", [Schema.Literals(OPTIONS)], ([o]) => {
    assertValid(DEF.single_select, o, o)
    assertValid(DEF.single_select, ` ${o}`, o)
  })

  it.prop("anything else is refused", [Anything], ([v]) => {
    if (v === null || (typeof v === "string" && (laravelTrim(v) === "" || OPTIONS.includes(laravelTrim(v))))) return
    assertInvalid(DEF.single_select, v)
    assert.strictEqual(messageOf(DEF.single_select, v), "The selected x single is invalid.")
  })

  it("compares exactly and refuses lists", () => {
    for (const v of ["Gold", "GOLD", ["gold"], "gold,silver"]) assertInvalid(DEF.single_select, v)
  })
})

describe("multi_select", () => {
  const Choice = Schema.Array(Schema.Literals(OPTIONS))

  it.prop("a list of options is kept, duplicates dropped; [] clears", [Choice], ([list]) => {
    const unique = [...new Set(list)]
    assertValid(DEF.multi_select, list, unique.length === 0 ? null : unique)
  })

  it.prop(
    "a list with a foreign element fails on that element's key",
    [Choice, Schema.String, Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 20 }))],
    ([list, bad, at]) => {
      if (OPTIONS.includes(laravelTrim(bad))) return
      const i = Math.min(at, list.length)
      const input = [...list.slice(0, i), bad, ...list.slice(i)]
      assertInvalid(DEF.multi_select, input, [`x_multi.${i}`])
      assert.strictEqual(messageOf(DEF.multi_select, input), `The selected x multi.${i} is invalid.`)
    }
  )

  it("refuses a lone value and non-string elements", () => {
    assertInvalid(DEF.multi_select, "gold")
    assert.strictEqual(messageOf(DEF.multi_select, "gold"), "The x multi field must be a list.")
    assertInvalid(DEF.multi_select, ["gold", 1, null], ["x_multi.1", "x_multi.2"])
  })
})

describe("email", () => {
  const Email = Schema.String.check(
    Schema.isPattern(/^[a-zA-Z0-9_+-]{1,12}(\.[a-z0-9]{1,8})?@([a-z0-9]{1,10}\.){1,3}[a-z]{2,8}$/)
  )

  it.prop("addresses are kept as written", [Email], ([email]) => {
    assertValid(DEF.email, email, email)
  })

  it.prop("text without an @ is refused", [Schema.String.check(Schema.isPattern(/^[^@]*[a-z][^@]*$/))], ([s]) => {
    if (laravelTrim(s) === "") return
    assertInvalid(DEF.email, s)
    assert.strictEqual(messageOf(DEF.email, s), "The x email field must be a valid email address.")
  })

  it("refuses malformed addresses", () => {
    for (
      const v of [
        "a@b",
        "@b.com",
        "a@.com",
        "a@b.",
        "a..b@c.com",
        ".a@c.com",
        "a@b@c.com",
        "a b@c.com",
        "a@b_c.com",
        "a@b.1c",
        `${"a".repeat(65)}@b.com`,
        `a@${"b".repeat(250)}.com`,
        5
      ]
    ) assertInvalid(DEF.email, v)
  })
})

describe("phone", () => {
  const Phone = Schema.String.check(Schema.isPattern(/^\+?([0-9][ -]?){5,19}[0-9]$/))

  it.prop("6 to 20 digits with separators are stored compact", [Phone], ([phone]) => {
    const expected = (phone.startsWith("+") ? "+" : "") + phone.replace(/[^0-9]/g, "")
    assertValid(DEF.phone, phone, expected)
  })

  it("examples", () => {
    assertValid(DEF.phone, "+966 50-123 4567", "+966501234567")
    assertValid(DEF.phone, "(555) 123.4567", "5551234567")
    assertValid(DEF.phone, "123456", "123456")
  })

  it("refuses too few or too many digits, letters, misplaced +, numbers", () => {
    for (const v of ["12345", "+1 234", "1".repeat(21), "+966 50 CALL ME", "12+3456789", "++123456789", 966501234567]) {
      assertInvalid(DEF.phone, v)
    }
    assert.strictEqual(messageOf(DEF.phone, "12345"), "The x phone field format is invalid.")
  })
})

describe("url", () => {
  const Url = Schema.String.check(Schema.isPattern(/^https?:\/\/[a-z0-9]{1,10}(\.[a-z]{2,6}){0,2}(:[1-9][0-9]{0,3})?(\/[a-zA-Z0-9_.-]{0,10}){0,3}$/))

  it.prop("http and https URLs are kept as written", [Url], ([url]) => {
    assertValid(DEF.url, url, url)
  })

  it("refuses other schemes, relative and malformed URLs", () => {
    for (
      const v of [
        "ftp://example.com",
        "javascript:alert(1)",
        "mailto:a@b.com",
        "example.com",
        "/path",
        "http://",
        "https://exa mple.com",
        "https://example.com/a b",
        `https://example.com/${"a".repeat(2_030)}`,
        5
      ]
    ) assertInvalid(DEF.url, v)
    assert.strictEqual(messageOf(DEF.url, "example.com"), "The x url field must be a valid URL.")
  })
})

describe("record bodies", () => {
  const create = (kind: ObjectKind, body: unknown) => validateRecordCreate(kind, body, CUSTOM)
  const update = (kind: ObjectKind, body: unknown) => validateRecordUpdate(kind, body, CUSTOM)

  it("normalises a deal create in definition order, nulls left out", () => {
    const values = Effect.runSync(create("deal", {
      x_number: "7",
      deal_stage: "closed_won",
      deal_name: "  Big deal ",
      amount: 1200,
      close_date: "2026-03-01T10:00:00Z",
      next_steps: null,
      x_multi: ["gold", "gold"]
    }))
    assert.deepStrictEqual(Object.entries(values), [
      ["deal_name", "Big deal"],
      ["amount", 1200],
      ["deal_stage", "closed_won"],
      ["close_date", "2026-03-01T10:00:00.000000Z"],
      ["x_number", 7],
      ["x_multi", ["gold"]]
    ])
  })

  it("requires the name property on create", () => {
    const required = (key: string) => ({ [key]: [`The ${key.replaceAll("_", " ")} field is required.`] })
    assert.deepStrictEqual(errorsOf(create("deal", {})), required("deal_name"))
    assert.deepStrictEqual(errorsOf(create("deal", { deal_name: null })), required("deal_name"))
    assert.deepStrictEqual(errorsOf(create("deal", { deal_name: "   " })), required("deal_name"))
    assert.deepStrictEqual(errorsOf(create("ticket", { desc: "x" })), required("ticket_name"))
    assert.deepStrictEqual(errorsOf(create("company", {})), required("name"))
    assert.deepStrictEqual(errorsOf(create("invoice", {})), required("invoice_number"))
    assert.deepStrictEqual(errorsOf(create("product", {})), required("name"))
    assert.deepStrictEqual(Effect.runSync(create("contact", {})), {})
  })

  it("lets an update leave the name out but not clear it", () => {
    assert.deepStrictEqual(Effect.runSync(update("deal", { amount: 5 })), { amount: 5 })
    assert.deepStrictEqual(errorsOf(update("deal", { deal_name: "" })), { deal_name: ["The deal name field is required."] })
  })

  it("clears values with null, \"\" and [] on update", () => {
    assert.deepStrictEqual(Effect.runSync(update("deal", { amount: null, next_steps: "", x_multi: [] })), {
      amount: null,
      next_steps: null,
      x_multi: null
    })
  })

  it("refuses unknown names, naming the kind", () => {
    assert.deepStrictEqual(errorsOf(update("deal", { nickname: "x" })), {
      nickname: ["The nickname field is not a deal property."]
    })
    // A custom property of another kind is unknown here.
    assert.deepStrictEqual(errorsOf(validateRecordUpdate("ticket", { x_string: "x" }, CUSTOM)), {
      x_string: ["The x string field is not a ticket property."]
    })
  })

  it("refuses contact-style names on a deal", () => {
    assert.deepStrictEqual(
      errorsOf(update("deal", { firstname: "A", lastname: "B", birthdate: "2000-01-01T00:00:00Z", annual_revenue: 5 })),
      {
        firstname: ["The firstname field is not a deal property."],
        lastname: ["The lastname field is not a deal property."],
        birthdate: ["The birthdate field is not a deal property."],
        annual_revenue: ["The annual revenue field is not a deal property."]
      }
    )
  })

  it("refuses read-only properties and record keys with a value, ignores them empty", () => {
    assert.deepStrictEqual(
      errorsOf(create("contact", { fullname: "A B", created_by: 3, deal_ids: ["x"], _id: "abc", created_at: "2026-01-01" })),
      {
        fullname: ["The fullname field is prohibited."],
        created_by: ["The created by field is prohibited."],
        deal_ids: ["The deal ids field is prohibited."],
        _id: ["The  id field is prohibited."],
        created_at: ["The created at field is prohibited."]
      }
    )
    assert.deepStrictEqual(errorsOf(update("ticket", { contacts_count: 2, deals_count: 0 })), {
      contacts_count: ["The contacts count field is prohibited."],
      deals_count: ["The deals count field is prohibited."]
    })
    assert.deepStrictEqual(
      Effect.runSync(update("contact", { fullname: null, deal_ids: [], account_id: "", firstname: "Ann" })),
      { firstname: "Ann" }
    )
  })

  it("reads forcast_amount as forecast_amount", () => {
    assert.deepStrictEqual(Effect.runSync(update("deal", { forcast_amount: "5" })), { forecast_amount: 5 })
    assert.deepStrictEqual(Effect.runSync(update("deal", { forcast_amount: 5, forecast_amount: "5" })), { forecast_amount: 5 })
    assert.deepStrictEqual(errorsOf(update("deal", { forecast_amount: 5, forcast_amount: 6 })), {
      forcast_amount: ["The forcast amount field must match forecast amount."]
    })
    assert.deepStrictEqual(errorsOf(update("deal", { forecast_amount: 5, forcast_amount: null })), {
      forcast_amount: ["The forcast amount field must match forecast amount."]
    })
    assert.deepStrictEqual(errorsOf(update("deal", { forcast_amount: "many" })), {
      forcast_amount: ["The forcast amount field must be a number."]
    })
    // Only deals know the synonym.
    assert.deepStrictEqual(errorsOf(update("invoice", { forcast_amount: 1 })), {
      forcast_amount: ["The forcast amount field is not a invoice property."]
    })
  })

  it("reports every error at once, definitions first, then unknown names in body order", () => {
    const failure = failureOf(create("deal", {
      zeta: 1,
      amount: "lots",
      deal_stage: "Won!",
      alpha: 2,
      x_multi: ["gold", "tin"],
      x_email: "nope"
    }))
    assert.deepStrictEqual(failure.errors, {
      deal_name: ["The deal name field is required."],
      amount: ["The amount field must be a number."],
      deal_stage: ["The selected deal stage is invalid."],
      "x_multi.1": ["The selected x multi.1 is invalid."],
      x_email: ["The x email field must be a valid email address."],
      zeta: ["The zeta field is not a deal property."],
      alpha: ["The alpha field is not a deal property."]
    })
    assert.strictEqual(failure.message, "The deal name field is required.")
  })

  it("survives hostile keys", () => {
    const body = JSON.parse("{\"__proto__\": {\"x\": 1}, \"constructor\": 1, \"deal_name\": \"A\"}")
    const errors = errorsOf(create("deal", body))
    assert.deepStrictEqual(Object.keys(errors), ["__proto__", "constructor"])
    assert.deepStrictEqual(Object.getOwnPropertyDescriptor(errors, "constructor")?.value, [
      "The constructor field is not a deal property."
    ])
    assert.deepStrictEqual(Object.getPrototypeOf(errors), Object.prototype)
  })

  it("refuses a deeply nested value without exhausting the stack", () => {
    let deep: unknown = "x"
    for (let i = 0; i < 200_000; i++) deep = [deep]
    assert.deepStrictEqual(Object.keys(errorsOf(update("deal", { x_string: deep, x_multi: deep, close_date: deep }))), [
      "close_date",
      "x_string",
      "x_multi.0"
    ])
  })

  it("applies a patch", () => {
    assert.deepStrictEqual(applyRecordPatch({ a: 1, b: "x", c: true }, { b: null, c: false, d: ["q"] }), {
      a: 1,
      c: false,
      d: ["q"]
    })
  })

  const Kind = Schema.Literals(["contact", "company", "deal", "ticket", "invoice", "product"])
  it.prop("create ∘ update: a stored body validates to itself", [Kind, Arbitrary.schema(Schema.String)], ([kind, name]) => {
    const text = laravelTrim(name) === "" ? "named" : name
    const body = { deal: { deal_name: text }, ticket: { ticket_name: text }, invoice: { invoice_number: text } }[
      kind as "deal" | "ticket" | "invoice"
    ] ?? (kind === "contact" ? { firstname: text } : { name: text })
    const stored = Effect.runSync(validateRecordCreate(kind, body, []))
    assert.deepStrictEqual(Effect.runSync(validateRecordCreate(kind, stored, [])), stored)
    assert.deepStrictEqual(Effect.runSync(validateRecordUpdate(kind, stored, [])), stored)
  })
})

describe("definition changes", () => {
  const convert = (previous: PropertyDefinition, next: PropertyDefinition, values: ReadonlyArray<StoredValue>) =>
    convertValuesForDefinition(previous, next, values)

  it("converts values that fit the new type", () => {
    const asString = { ...DEF.number, type: "string" } as PropertyDefinition
    assert.deepStrictEqual(Effect.runSync(convert(DEF.number, asString, [12, 0.5])), ["12", "0.5"])
    const asNumber = { ...DEF.string, type: "number" } as PropertyDefinition
    assert.deepStrictEqual(Effect.runSync(convert(DEF.string, asNumber, ["12", "-1.5"])), [12, -1.5])
    const asMulti = { ...DEF.single_select, type: "multi_select" } as PropertyDefinition
    assert.deepStrictEqual(Effect.runSync(convert(DEF.single_select, asMulti, ["gold"])), [["gold"]])
    const asDate = { ...DEF.datetime, type: "date" } as PropertyDefinition
    assert.deepStrictEqual(Effect.runSync(convert(DEF.datetime, asDate, ["2026-11-21T17:24:05.123000Z"])), ["2026-11-21"])
  })

  it("refuses a change the values cannot satisfy: on type, or on enum when only options changed", () => {
    const asNumber = { ...DEF.string, type: "number" } as PropertyDefinition
    assert.deepStrictEqual(errorsOf(convert(DEF.string, asNumber, ["12", "twelve"])), {
      type: ["The type field does not fit the existing values."]
    })
    const fewer = { ...DEF.single_select, enum: [{ en: "Gold", ar: "ذهبي", internal_name: "gold" }] } as PropertyDefinition
    assert.deepStrictEqual(errorsOf(convert(DEF.single_select, fewer, ["gold", "silver"])), {
      enum: ["The enum field does not fit the existing values."]
    })
  })
})
