import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import { type ValidationFailed } from "../../src/errors.ts"
import {
  BUILTIN_GROUPS,
  deriveGroupInternalName,
  type GroupInput,
  type PropertyBodyContext,
  type PropertyCreateInput,
  type PropertyInput,
  snakeCaseName,
  validateGroupBody,
  validatePropertyCreate,
  validatePropertyUpdate
} from "../../src/Records.ts"

const GROUP = BUILTIN_GROUPS.deal._id
const CUSTOM_GROUP = "65a1b2c3d4e5f60718293a4b"
const DEAL: PropertyBodyContext = { kind: "deal" }

const errorsOf = <A>(effect: Effect.Effect<A, ValidationFailed>) => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isSuccess(exit)) return assert.fail(`expected a failure, got ${JSON.stringify(exit.value)}`)
  return Effect.runSync(Effect.flip(effect)).errors
}
const valueOf = <A>(effect: Effect.Effect<A, ValidationFailed>): A => Effect.runSync(effect)

const create = (body: unknown, context: PropertyBodyContext = DEAL) => validatePropertyCreate(body, context)
const valid = { type: "string", name: { en: "Nickname" }, internal_name: "nickname", group_id: GROUP }
/** The errors of a body that is `valid` with some keys changed. */
const createErrors = (changes: Record<string, unknown>, context?: PropertyBodyContext) =>
  errorsOf(create({ ...valid, ...changes }, context))

describe("property create body", () => {
  it("reports every missing field, in rule order", () => {
    const failure = Effect.runSync(Effect.flip(create({})))
    assert.deepStrictEqual(failure.errors, {
      type: ["The type field is required."],
      name: ["The name field is required."],
      internal_name: ["The internal name field is required."],
      group_id: ["The group id field is required."]
    })
    assert.strictEqual(failure.message, "The type field is required.")
  })

  it("treats a non-object body as empty", () => {
    for (const body of [null, "x", 3, [1, 2]]) assert.deepStrictEqual(Object.keys(errorsOf(create(body))), ["type", "name", "internal_name", "group_id"])
  })

  it("accepts a valid body, trimmed", () => {
    const input: PropertyCreateInput = valueOf(create({
      type: "string",
      name: { en: "  Nickname ", ar: "اللقب" },
      desc: { en: "What friends call them" },
      internal_name: " nickname ",
      group_id: GROUP,
      extra: "ignored"
    }))
    assert.deepStrictEqual(input, {
      type: "string",
      name: { ar: "اللقب", en: "Nickname" },
      desc: { en: "What friends call them" },
      internal_name: "nickname",
      group_id: GROUP,
      enum: null
    } as PropertyCreateInput)
  })

  it("type", () => {
    assert.deepStrictEqual(createErrors({ type: 5 }), { type: ["The type field must be a string."] })
    assert.deepStrictEqual(createErrors({ type: "text" }), { type: ["The selected type is invalid."] })
    assert.deepStrictEqual(createErrors({ type: "  " }), { type: ["The type field is required."] })
    for (const type of ["string", "textarea", "number", "boolean", "date", "datetime", "email", "phone", "url"]) {
      assert.strictEqual(valueOf(create({ ...valid, type })).type, type)
    }
  })

  it("name", () => {
    assert.deepStrictEqual(createErrors({ name: "Nickname" }), { name: ["The name field must be an array."] })
    assert.deepStrictEqual(createErrors({ name: [] }), { name: ["The name field is required."] })
    assert.deepStrictEqual(createErrors({ name: {} }), {
      "name.en": ["The name.en field is required when name.ar is not present."],
      "name.ar": ["The name.ar field is required when name.en is not present."]
    })
    assert.deepStrictEqual(createErrors({ name: { en: " ", ar: null } }), {
      "name.en": ["The name.en field is required when name.ar is not present."],
      "name.ar": ["The name.ar field is required when name.en is not present."]
    })
    assert.deepStrictEqual(createErrors({ name: { en: 5 } }), { "name.en": ["The name.en field must be a string."] })
    assert.deepStrictEqual(createErrors({ name: { ar: ["x"] } }), { "name.ar": ["The name.ar field must be a string."] })
    assert.deepStrictEqual(createErrors({ name: { en: "a".repeat(256) } }), {
      "name.en": ["The name.en field must not be greater than 255 characters."]
    })
    assert.deepStrictEqual(valueOf(create({ ...valid, name: { ar: "ع".repeat(255) } })).name, { ar: "ع".repeat(255) })
    // Characters, not UTF-16 units.
    assert.deepStrictEqual(valueOf(create({ ...valid, name: { en: "😀".repeat(255) } })).name, { en: "😀".repeat(255) })
  })

  it("desc", () => {
    assert.isNull(valueOf(create(valid)).desc)
    assert.isNull(valueOf(create({ ...valid, desc: null })).desc)
    assert.isNull(valueOf(create({ ...valid, desc: {} })).desc)
    assert.isNull(valueOf(create({ ...valid, desc: { en: "" } })).desc)
    assert.deepStrictEqual(valueOf(create({ ...valid, desc: { ar: "وصف" } })).desc, { ar: "وصف" })
    assert.deepStrictEqual(createErrors({ desc: "text" }), { desc: ["The desc field must be an array."] })
    assert.deepStrictEqual(createErrors({ desc: { en: 1 } }), { "desc.en": ["The desc.en field must be a string."] })
    assert.deepStrictEqual(createErrors({ desc: { ar: "x".repeat(256) } }), {
      "desc.ar": ["The desc.ar field must not be greater than 255 characters."]
    })
  })

  it("internal_name", () => {
    assert.deepStrictEqual(createErrors({ internal_name: 5 }), { internal_name: ["The internal name field must be a string."] })
    for (const bad of ["Nickname", "1st", "_x", "nick-name", "nick name", "x".repeat(64), "ñ"]) {
      assert.deepStrictEqual(createErrors({ internal_name: bad }), {
        internal_name: ["The internal name field format is invalid."]
      }, bad)
    }
    for (const good of ["x", "a1", "nick_name_2", "a".repeat(63)]) assert.strictEqual(valueOf(create({ ...valid, internal_name: good })).internal_name, good)
  })

  it("internal_name may not take a built-in's or a reserved name of the kind, nor a taken one", () => {
    const taken = { internal_name: ["The internal name has already been taken."] }
    for (const name of ["deal_name", "amount", "forecast_amount", "forcast_amount", "contact_ids", "created_at", "account_id"]) {
      assert.deepStrictEqual(createErrors({ internal_name: name }), taken, name)
    }
    assert.deepStrictEqual(createErrors({ internal_name: "fullname" }, { kind: "contact" }), taken)
    // Another kind's built-in is free.
    assert.strictEqual(valueOf(create({ ...valid, internal_name: "fullname" })).internal_name, "fullname")
    assert.strictEqual(valueOf(create({ ...valid, internal_name: "contact_ids" }, { kind: "contact" })).internal_name, "contact_ids")
    assert.strictEqual(valueOf(create({ ...valid, internal_name: "company_ids" }, { kind: "company" })).internal_name, "company_ids")
    // The link filters and derived link properties of a kind are its own names.
    assert.deepStrictEqual(createErrors({ internal_name: "contact_ids" }, { kind: "ticket" }), taken)
    assert.deepStrictEqual(createErrors({ internal_name: "company_ids" }, { kind: "ticket" }), taken)
    assert.deepStrictEqual(createErrors({ internal_name: "tickets_count" }, { kind: "company" }), taken)
    assert.deepStrictEqual(createErrors({ internal_name: "nickname" }, { kind: "deal", takenInternalNames: ["nickname"] }), taken)
  })

  it("group_id", () => {
    assert.deepStrictEqual(createErrors({ group_id: 5 }), { group_id: ["The group id field must be a string."] })
    for (const bad of ["abc", GROUP.toUpperCase(), `${GROUP}0`]) {
      assert.deepStrictEqual(createErrors({ group_id: bad }), { group_id: ["The selected group id is invalid."] })
    }
    const context = { kind: "deal", groupIds: [GROUP] } as const
    assert.deepStrictEqual(createErrors({ group_id: CUSTOM_GROUP }, context), { group_id: ["The selected group id is invalid."] })
    assert.strictEqual(valueOf(create({ ...valid, group_id: CUSTOM_GROUP })).group_id, CUSTOM_GROUP)
    assert.strictEqual(valueOf(create({ ...valid, group_id: GROUP }, context)).group_id, GROUP)
  })

  it("enum is prohibited for types without options", () => {
    assert.deepStrictEqual(createErrors({ enum: [{ en: "A", ar: "أ", internal_name: "a" }] }), {
      enum: ["The enum field is prohibited."]
    })
    assert.deepStrictEqual(createErrors({ type: "number", enum: "x" }), { enum: ["The enum field is prohibited."] })
    // Empty is no value (Laravel's prohibited lets it through).
    assert.isNull(valueOf(create({ ...valid, enum: [] })).enum)
    assert.isNull(valueOf(create({ ...valid, enum: null })).enum)
  })

  it("enum is required for selects", () => {
    assert.deepStrictEqual(createErrors({ type: "single_select" }), {
      enum: ["The enum field is required when type is single_select."]
    })
    assert.deepStrictEqual(createErrors({ type: "multi_select", enum: [] }), {
      enum: ["The enum field is required when type is multi_select."]
    })
    assert.deepStrictEqual(createErrors({ type: "single_select", enum: "a,b" }), { enum: ["The enum field must be a list."] })
    assert.deepStrictEqual(createErrors({ type: "single_select", enum: { 0: { en: "A" } } }), {
      enum: ["The enum field must be a list."]
    })
  })

  it("enum options", () => {
    const select = (options: unknown) => createErrors({ type: "single_select", enum: options })
    assert.deepStrictEqual(select(["a"]), { "enum.0": ["The enum.0 field must be an array."] })
    assert.deepStrictEqual(select([{ internal_name: "a" }]), {
      "enum.0.en": ["The enum.0.en field is required when enum.0.ar is not present."],
      "enum.0.ar": ["The enum.0.ar field is required when enum.0.en is not present."]
    })
    assert.deepStrictEqual(select([{ en: 1, internal_name: "a" }]), { "enum.0.en": ["The enum.0.en field must be a string."] })
    assert.deepStrictEqual(select([{ ar: "x".repeat(256), internal_name: "a" }]), {
      "enum.0.ar": ["The enum.0.ar field must not be greater than 255 characters."]
    })
    assert.deepStrictEqual(select([{ en: "A" }]), { "enum.0.internal_name": ["The enum.0.internal name field is required."] })
    assert.deepStrictEqual(select([{ en: "A", internal_name: 1 }]), {
      "enum.0.internal_name": ["The enum.0.internal name field must be a string."]
    })
    assert.deepStrictEqual(select([{ en: "A", internal_name: "Gold Tier" }]), {
      "enum.0.internal_name": ["The enum.0.internal name field format is invalid."]
    })
    assert.deepStrictEqual(select([{ en: "A", internal_name: "a" }, { en: "B", internal_name: "b" }, { en: "C", internal_name: "a" }]), {
      "enum.0.internal_name": ["The enum.0.internal name field has a duplicate value."],
      "enum.2.internal_name": ["The enum.2.internal name field has a duplicate value."]
    })
  })

  it("keeps valid options, filling a missing label with the other", () => {
    const input = valueOf(create({
      ...valid,
      type: "multi_select",
      enum: [{ en: "Gold", ar: "ذهبي", internal_name: "gold" }, { en: "Silver", internal_name: "silver" }, {
        ar: "برونزي",
        internal_name: " bronze "
      }]
    }))
    assert.deepStrictEqual(input.enum, [
      { en: "Gold", ar: "ذهبي", internal_name: "gold" },
      { en: "Silver", ar: "Silver", internal_name: "silver" },
      { en: "برونزي", ar: "برونزي", internal_name: "bronze" }
    ])
  })

  it("reports all fields together", () => {
    assert.deepStrictEqual(
      errorsOf(create({ type: "single_select", name: { en: 1 }, desc: 2, internal_name: "Deal", group_id: "g", enum: [{}] })),
      {
        "name.en": ["The name.en field must be a string."],
        desc: ["The desc field must be an array."],
        internal_name: ["The internal name field format is invalid."],
        group_id: ["The selected group id is invalid."],
        "enum.0.en": ["The enum.0.en field is required when enum.0.ar is not present."],
        "enum.0.ar": ["The enum.0.ar field is required when enum.0.en is not present."],
        "enum.0.internal_name": ["The enum.0.internal name field is required."]
      }
    )
  })
})

describe("property update body", () => {
  const current = { internal_name: "nickname" }
  const body = { type: "string", name: { en: "Nickname" }, group_id: GROUP }
  const update = (changes: Record<string, unknown>) => validatePropertyUpdate({ ...body, ...changes }, current)

  it("accepts a body without internal_name, or with the same one", () => {
    const expected: PropertyInput = { type: "string", name: { en: "Nickname" }, desc: null, group_id: GROUP, enum: null } as PropertyInput
    assert.deepStrictEqual(valueOf(update({})), expected)
    assert.deepStrictEqual(valueOf(update({ internal_name: "nickname" })), expected)
    assert.deepStrictEqual(valueOf(update({ internal_name: " nickname " })), expected)
    assert.deepStrictEqual(valueOf(update({ internal_name: null })), expected)
  })

  it("refuses another internal_name", () => {
    for (const other of ["nick", "Nickname", 5]) {
      assert.deepStrictEqual(errorsOf(update({ internal_name: other })), {
        internal_name: ["The internal name field cannot be changed."]
      })
    }
  })

  it("has the create rules for the other fields", () => {
    assert.deepStrictEqual(errorsOf(validatePropertyUpdate({}, current)), {
      type: ["The type field is required."],
      name: ["The name field is required."],
      group_id: ["The group id field is required."]
    })
    assert.deepStrictEqual(errorsOf(update({ type: "single_select" })), {
      enum: ["The enum field is required when type is single_select."]
    })
    assert.deepStrictEqual(errorsOf(validatePropertyUpdate({ ...body, group_id: CUSTOM_GROUP }, current, { groupIds: [GROUP] })), {
      group_id: ["The selected group id is invalid."]
    })
  })
})

describe("group body", () => {
  it("requires a name", () => {
    assert.deepStrictEqual(errorsOf(validateGroupBody({})), { name: ["The name field is required."] })
    assert.deepStrictEqual(errorsOf(validateGroupBody({ name: { en: "" } })), {
      "name.en": ["The name.en field is required when name.ar is not present."],
      "name.ar": ["The name.ar field is required when name.en is not present."]
    })
    assert.deepStrictEqual(errorsOf(validateGroupBody({ name: "Sales", desc: { en: 5 } })), {
      name: ["The name field must be an array."],
      "desc.en": ["The desc.en field must be a string."]
    })
  })

  it("accepts name and desc", () => {
    const input: GroupInput = valueOf(validateGroupBody({ name: { ar: "المبيعات", en: " Sales " }, desc: { en: "Sales data" } }))
    assert.deepStrictEqual(input, { name: { ar: "المبيعات", en: "Sales" }, desc: { en: "Sales data" } } as GroupInput)
    assert.isNull(valueOf(validateGroupBody({ name: { ar: "المبيعات" } })).desc)
  })
})

describe("group internal_name", () => {
  it("is the snake_case of name.en, else name.ar, else group", () => {
    const cases: ReadonlyArray<readonly [{ en?: string; ar?: string }, string]> = [
      [{ en: "Sales" }, "sales"],
      [{ en: "Sales Team", ar: "فريق المبيعات" }, "sales_team"],
      [{ en: "  Deal Info!! " }, "deal_info"],
      [{ en: "DealInfo" }, "deal_info"],
      [{ en: "VIPClients" }, "vip_clients"],
      [{ en: "Café & Crème" }, "cafe_creme"],
      [{ en: "2024 Targets" }, "2024_targets"],
      [{ ar: "المبيعات" }, "group"],
      [{ en: "!!!", ar: "Sales 2" }, "sales_2"],
      [{ en: "مبيعات", ar: "مبيعات" }, "group"],
      [{}, "group"]
    ]
    for (const [name, expected] of cases) assert.strictEqual(deriveGroupInternalName(name, []), expected, JSON.stringify(name))
  })

  it("is made unique with a numeric suffix", () => {
    assert.strictEqual(deriveGroupInternalName({ en: "Sales" }, ["sales"]), "sales_2")
    assert.strictEqual(deriveGroupInternalName({ en: "Sales" }, ["sales", "sales_2"]), "sales_3")
    assert.strictEqual(deriveGroupInternalName({ en: "Sales" }, ["sales", "sales_3"]), "sales_2")
    assert.strictEqual(deriveGroupInternalName({ ar: "مجموعة" }, ["group"]), "group_2")
    assert.strictEqual(deriveGroupInternalName({ en: "Deal information" }, ["deal_information"]), "deal_information_2")
  })

  it("stays within 63 characters", () => {
    const long = "Word ".repeat(30)
    const base = deriveGroupInternalName({ en: long }, [])
    assert.isAtMost(base.length, 63)
    assert.notMatch(base, /_$/)
    const next = deriveGroupInternalName({ en: long }, [base])
    assert.isAtMost(next.length, 63)
    assert.match(next, /_2$/)
  })

  const Name = Schema.Struct({ en: Schema.optionalKey(Schema.String), ar: Schema.optionalKey(Schema.String) })
  const Repeat = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 }))

  it.prop(
    "gives distinct names, none taken, each of [a-z0-9_] without edge underscores",
    [Name, Schema.Array(Schema.String), Repeat],
    ([name, others, times]) => {
      const taken = new Set(others.map(snakeCaseName))
      const given: Array<string> = []
      for (let i = 0; i < times; i++) {
        const derived = deriveGroupInternalName(name, taken)
        assert.isFalse(taken.has(derived))
        assert.match(derived, /^[a-z0-9]+(_[a-z0-9]+)*$/)
        assert.isAtMost(derived.length, 63)
        taken.add(derived)
        given.push(derived)
      }
      assert.strictEqual(new Set(given).size, times)
    }
  )

  it.prop("is the plain snake_case when that is free", [Name], ([name]) => {
    const derived = deriveGroupInternalName(name, [])
    const fromText = [name.en, name.ar].map((t) => t === undefined ? "" : snakeCaseName(t)).find((s) => s !== "")
    assert.strictEqual(derived, fromText ?? "group")
  })
})
