import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import fc from "fast-check"
import {
  type ComplexFilters,
  complexFiltersToQuery,
  type Condition,
  encodeComplexFilters,
  type FilterableProperty,
  type FilterNode,
  type FilterScalar,
  type FilterValueType,
  hasNoValue,
  matchesCondition,
  matchesFilters,
  operatorsFor,
  type ParseFilterOptions,
  parseComplexFilters
} from "../../src/Records.ts"
import { laravelTrim } from "../../src/Wire.ts"
// The bracket notation reaches the core parsed by the edge, as a request's query does.
import { parseListQuery, type QueryInput } from "@wasl/http/Endpoints"

const STAGES = ["appointment_scheduled", "qualified_to_buy", "closed_won", "closed_lost"]
const TAGS = ["red", "green", "blue", "Mixed Case"]

const PROPERTIES: ReadonlyArray<FilterableProperty> = [
  { internal_name: "deal_name", type: "string" },
  { internal_name: "next_steps", type: "textarea" },
  { internal_name: "amount", type: "number" },
  { internal_name: "is_hot", type: "boolean" },
  { internal_name: "birthdate", type: "date" },
  { internal_name: "last_contacted_at", type: "datetime" },
  { internal_name: "deal_stage", type: "single_select", options: STAGES },
  { internal_name: "tags", type: "multi_select", options: TAGS },
  { internal_name: "email", type: "email" },
  { internal_name: "phone", type: "phone" },
  { internal_name: "website", type: "url" }
]

const DEAL: ParseFilterOptions = { kind: "deal" }
const ID_A = "65a1b2c3d4e5f60718293a4b"
const ID_B = "0123456789abcdef01234567"

const listInput = (input: string | QueryInput) => typeof input === "string" ? input : parseListQuery(input)
const parse = (input: string | QueryInput, options: ParseFilterOptions = {}) =>
  Effect.runSync(parseComplexFilters(listInput(input), PROPERTIES, options))
const errorsOf = (input: string | QueryInput, options: ParseFilterOptions = {}) =>
  Effect.runSync(Effect.flip(parseComplexFilters(listInput(input), PROPERTIES, options))).errors
const json = (filters: unknown) => JSON.stringify(filters)

const utc = (iso: string) => DateTime.makeUnsafe(iso)
const cond = (property: string, type: FilterValueType, operator: Condition["operator"], value?: unknown): Condition =>
  (value === undefined
    ? { _tag: "Condition", property, type, operator }
    : { _tag: "Condition", property, type, operator, value }) as Condition

// ---------------------------------------------------------------------------------------------
// Generated filters
// ---------------------------------------------------------------------------------------------

const FILTER_PROPERTIES: ReadonlyArray<{ readonly name: string; readonly type: FilterValueType; readonly options?: ReadonlyArray<string> }> = [
  ...PROPERTIES.map((p) => ({ name: p.internal_name, type: p.type, ...(p.options ? { options: p.options } : {}) })),
  { name: "created_at", type: "datetime" },
  { name: "updated_at", type: "datetime" },
  { name: "contact_ids", type: "record_ids" }
]

const MAX_MS = Date.UTC(9999, 11, 31)
const MIN_MS = Date.UTC(1000, 0, 1)

/** Text that survives bracket notation (Laravel trims it) and is not blank. */
const textArb = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).filter((s) => laravelTrim(s) === s && s !== "")

const scalarArb = (type: FilterValueType, options: ReadonlyArray<string> | undefined): fc.Arbitrary<FilterScalar> => {
  switch (type) {
    case "number":
      return fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => n + 0)
    case "boolean":
      return fc.boolean()
    case "date":
      return fc.integer({ min: MIN_MS / 86_400_000, max: MAX_MS / 86_400_000 }).map((d) => DateTime.makeUnsafe(d * 86_400_000))
    case "datetime":
      return fc.integer({ min: MIN_MS, max: MAX_MS }).map((ms) => DateTime.makeUnsafe(ms))
    case "single_select":
    case "multi_select":
      return fc.constantFrom(...options!)
    case "record_ids":
      return fc.stringMatching(/^[0-9a-f]{24}$/)
    default:
      return textArb
  }
}

const conditionArb: fc.Arbitrary<Condition> = fc.constantFrom(...FILTER_PROPERTIES).chain((p) =>
  fc.constantFrom(...operatorsFor(p.type)).chain((operator): fc.Arbitrary<Condition> => {
    const base = { _tag: "Condition", property: p.name, type: p.type } as const
    const scalar = scalarArb(p.type, p.options)
    switch (operator) {
      case "is_empty":
      case "is_not_empty":
        return fc.constant({ ...base, operator })
      case "in":
      case "not_in":
        return fc.oneof(
          { weight: 5, arbitrary: fc.array(scalar, { minLength: 1, maxLength: 5 }) },
          { weight: 1, arbitrary: fc.array(scalar, { minLength: 90, maxLength: 100 }) }
        ).map((value) => ({ ...base, operator, value }))
      case "between":
        return fc.tuple(scalar, scalar).map((value) => ({ ...base, operator, value }))
      default:
        return scalar.map((value) => ({ ...base, operator, value }))
    }
  })
)

const nodeArb: fc.Arbitrary<FilterNode> = fc.oneof(
  { weight: 3, arbitrary: conditionArb },
  { weight: 1, arbitrary: fc.array(conditionArb, { minLength: 1, maxLength: 3 }).map((conditions) => ({ _tag: "Or" as const, conditions })) }
)
/** At most 6 nodes of at most 3 conditions: within the limit of 20. */
const filtersArb: fc.Arbitrary<ComplexFilters> = fc.array(nodeArb, { maxLength: 6 })

/** Bracket pairs as a flat record, lists written with `[]` (as browsers send `a[]=x&a[]=y`). */
const toEmptyBracketRecord = (pairs: ReadonlyArray<readonly [string, string]>): Record<string, string | Array<string>> => {
  const record: Record<string, string | Array<string>> = {}
  for (const [name, value] of pairs) {
    const m = /^(.*\[value\])\[\d+\]$/.exec(name)
    if (m === null) record[name] = value
    else ((record[`${m[1]}[]`] ??= []) as Array<string>).push(value)
  }
  return record
}

describe("parseComplexFilters: both encodings", () => {
  it("JSON and bracket notation give the same AST", () => {
    const expected: ComplexFilters = [
      cond("amount", "number", "gt", 100),
      {
        _tag: "Or",
        conditions: [cond("deal_stage", "single_select", "in", ["closed_won", "closed_lost"]), cond("is_hot", "boolean", "eq", true)]
      },
      cond("created_at", "datetime", "between", [utc("2026-01-01T00:00:00Z"), utc("2026-02-01T12:30:00Z")]),
      cond("deal_name", "string", "is_not_empty")
    ]
    const fromJson = parse(json([
      { property: "amount", operator: "gt", value: 100 },
      {
        or: [
          { property: "deal_stage", operator: "in", value: ["closed_won", "closed_lost"] },
          { property: "is_hot", operator: "eq", value: true }
        ]
      },
      { property: "created_at", operator: "between", value: ["2026-01-01", "2026-02-01T12:30:00Z"] },
      { property: "deal_name", operator: "is_not_empty" }
    ]))
    const fromBrackets = parse({
      "complex_filters[0][property]": "amount",
      "complex_filters[0][operator]": "gt",
      "complex_filters[0][value]": "100",
      "complex_filters[1][or][0][property]": "deal_stage",
      "complex_filters[1][or][0][operator]": "in",
      "complex_filters[1][or][0][value][]": ["closed_won", "closed_lost"],
      "complex_filters[1][or][1][property]": "is_hot",
      "complex_filters[1][or][1][operator]": "eq",
      "complex_filters[1][or][1][value]": "true",
      "complex_filters[2][property]": "created_at",
      "complex_filters[2][operator]": "between",
      "complex_filters[2][value][0]": "2026-01-01",
      "complex_filters[2][value][1]": "2026-02-01T12:30:00Z",
      "complex_filters[3][property]": "deal_name",
      "complex_filters[3][operator]": "is_not_empty"
    })
    assert.deepStrictEqual(fromJson, expected)
    assert.deepStrictEqual(fromBrackets, expected)
    // The JSON form also arrives inside the whole query.
    assert.deepStrictEqual(parse({ complex_filters: json(encodeComplexFilters(expected)), page: "2" }), expected)
  })

  it("a property test: encode a generated AST both ways, parse both, get it back", () => {
    fc.assert(
      fc.property(filtersArb, (filters) => {
        const encodedJson = json(encodeComplexFilters(filters))
        assert.deepStrictEqual(parse(encodedJson, DEAL), filters)
        assert.deepStrictEqual(parse([["complex_filters", encodedJson]], DEAL), filters)
        const pairs = complexFiltersToQuery(filters)
        assert.deepStrictEqual(parse(pairs, DEAL), filters)
        assert.deepStrictEqual(parse(Object.fromEntries(pairs), DEAL), filters)
        assert.deepStrictEqual(parse(toEmptyBracketRecord(pairs), DEAL), filters)
      }),
      { numRuns: 300 }
    )
  })

  it("absent, empty, blank or null means no filter", () => {
    assert.deepStrictEqual(parse({}), [])
    assert.deepStrictEqual(parse({ complex_filters: "" }), [])
    assert.deepStrictEqual(parse("  "), [])
    assert.deepStrictEqual(parse("[]"), [])
    assert.deepStrictEqual(parse("null"), [])
  })

  it("bracket indices may come in any order; elements are placed by index", () => {
    assert.deepStrictEqual(
      parse([
        ["complex_filters[1][property]", "amount"],
        ["complex_filters[1][operator]", "lt"],
        ["complex_filters[1][value]", "5"],
        ["complex_filters[0][property]", "phone"],
        ["complex_filters[0][operator]", "starts_with"],
        ["complex_filters[0][value]", "+44"]
      ]),
      [cond("phone", "phone", "starts_with", "+44"), cond("amount", "number", "lt", 5)]
    )
  })
})

describe("parseComplexFilters: coercion per type", () => {
  /** The value of a single condition sent in bracket notation. */
  const one = (property: string, operator: string, value: string | ReadonlyArray<string>) => {
    const pairs: Array<readonly [string, string]> = [
      ["complex_filters[0][property]", property],
      ["complex_filters[0][operator]", operator]
    ]
    if (typeof value === "string") pairs.push(["complex_filters[0][value]", value])
    else value.forEach((v) => pairs.push(["complex_filters[0][value][]", v]))
    const nodes = parse(pairs, DEAL)
    return (nodes[0] as Condition & { readonly value?: unknown }).value
  }

  it("numbers from decimal strings", () => {
    assert.strictEqual(one("amount", "eq", "100"), 100)
    assert.strictEqual(one("amount", "eq", "-1.5"), -1.5)
    assert.strictEqual(one("amount", "eq", "2e3"), 2000)
    assert.strictEqual(one("amount", "eq", ".5"), 0.5)
    assert.strictEqual(one("amount", "eq", "-0"), 0)
    assert.isFalse(Object.is(one("amount", "eq", "-0"), -0))
    assert.deepStrictEqual(one("amount", "in", ["1", "2.25"]), [1, 2.25])
    assert.deepStrictEqual(parse(json([{ property: "amount", operator: "gte", value: "7" }])), [cond("amount", "number", "gte", 7)])
  })

  it("booleans from true/false/1/0", () => {
    assert.strictEqual(one("is_hot", "eq", "true"), true)
    assert.strictEqual(one("is_hot", "eq", "1"), true)
    assert.strictEqual(one("is_hot", "eq", "false"), false)
    assert.strictEqual(one("is_hot", "eq", "0"), false)
    assert.deepStrictEqual(parse(json([{ property: "is_hot", operator: "neq", value: 0 }])), [cond("is_hot", "boolean", "neq", false)])
  })

  it("datetimes from ISO 8601, epoch milliseconds and the $date object", () => {
    const at = utc("2026-11-21T17:24:05.123Z")
    assert.deepStrictEqual(one("last_contacted_at", "gt", "2026-11-21T17:24:05.123456Z"), at)
    assert.deepStrictEqual(one("last_contacted_at", "gt", "2026-11-21T19:24:05.123+02:00"), at)
    assert.deepStrictEqual(one("last_contacted_at", "gt", String(DateTime.toEpochMillis(at))), at)
    assert.deepStrictEqual(
      parse([
        ["complex_filters[0][property]", "updated_at"],
        ["complex_filters[0][operator]", "lte"],
        ["complex_filters[0][value][$date][$numberLong]", String(DateTime.toEpochMillis(at))]
      ]),
      [cond("updated_at", "datetime", "lte", at)]
    )
    assert.deepStrictEqual(
      parse(json([{ property: "updated_at", operator: "lt", value: DateTime.toEpochMillis(at) }])),
      [cond("updated_at", "datetime", "lt", at)]
    )
  })

  it("dates are truncated to their UTC day", () => {
    assert.deepStrictEqual(one("birthdate", "eq", "1990-05-17"), utc("1990-05-17T00:00:00Z"))
    assert.deepStrictEqual(one("birthdate", "eq", "1990-05-17T23:59:59Z"), utc("1990-05-17T00:00:00Z"))
  })

  it("select values must be options, exactly", () => {
    assert.strictEqual(one("deal_stage", "eq", "closed_won"), "closed_won")
    assert.deepStrictEqual(one("tags", "in", ["red", "Mixed Case"]), ["red", "Mixed Case"])
    assert.strictEqual(one("tags", "contains", "blue"), "blue")
  })

  it("text is kept as sent in JSON and trimmed in brackets (Laravel's TrimStrings)", () => {
    assert.strictEqual(one("deal_name", "contains", "  Acme  "), "Acme")
    assert.deepStrictEqual(parse(json([{ property: "deal_name", operator: "contains", value: " Acme " }])), [
      cond("deal_name", "string", "contains", " Acme ")
    ])
  })

  it("deals filter on contact_ids with in", () => {
    assert.deepStrictEqual(one("contact_ids", "in", [ID_A, ID_B]), [ID_A, ID_B])
  })
})

describe("parseComplexFilters: errors", () => {
  const bad = (filters: unknown, errors: Record<string, ReadonlyArray<string>>, options: ParseFilterOptions = {}) =>
    assert.deepStrictEqual(errorsOf(typeof filters === "string" ? filters : json(filters), options), errors)

  it("the list itself", () => {
    bad("[{", { complex_filters: ["The complex filters field must be a valid JSON string."] })
    bad("{\"property\":\"amount\"}", { complex_filters: ["The complex filters field must be a list."] })
    bad("\"amount\"", { complex_filters: ["The complex filters field must be a list."] })
    bad("5", { complex_filters: ["The complex filters field must be a list."] })
    // Sparse bracket indices are not a list either.
    assert.deepStrictEqual(errorsOf({ "complex_filters[1][property]": "amount", "complex_filters[1][operator]": "is_empty" }), {
      complex_filters: ["The complex filters field must be a list."]
    })
  })

  it("at most 20 conditions, or-groups counted by their conditions", () => {
    const c = { property: "amount", operator: "gt", value: 1 }
    const tooMany = { complex_filters: ["The complex filters field must not have more than 20 conditions."] }
    bad(Array(21).fill(c), tooMany)
    bad([...Array(19).fill(c), { or: [c, c] }], tooMany)
    bad([{ or: Array(21).fill(c) }], tooMany)
    assert.strictEqual(parse(json(Array(20).fill(c))).length, 20)
    assert.strictEqual(parse(json([...Array(18).fill(c), { or: [c, c] }])).length, 19)
  })

  it("bracket names nested deeper than 64 levels are refused, not dropped", () => {
    const tooDeep = { complex_filters: ["The complex filters field must not be nested more than 64 levels deep."] }
    const name = (levels: number) => "complex_filters" + "[0]".repeat(levels)
    assert.deepStrictEqual(errorsOf([[name(65), "x"]]), tooDeep)
    assert.deepStrictEqual(errorsOf({ [name(200)]: "x", "complex_filters[0][property]": "amount" }), tooDeep)
    // At the limit the name is kept (and then judged as a filter); other parameters may nest deeper.
    assert.notDeepEqual(errorsOf([[name(64), "x"]]), tooDeep)
    assert.deepStrictEqual(parse([["other" + "[0]".repeat(65), "x"]]), [])
  })

  it("JSON nested deeper than 64 levels, as lists or as or-groups, is refused as a bracket name is", () => {
    const tooDeep = { complex_filters: ["The complex filters field must not be nested more than 64 levels deep."] }
    const c = "{\"property\":\"amount\",\"operator\":\"gt\",\"value\":1}"
    // Built as text: JSON.stringify itself recurses.
    const lists = (levels: number) => "[".repeat(levels) + c + "]".repeat(levels)
    const ors = (levels: number) => "[" + "{\"or\":[".repeat(levels) + c + "]}".repeat(levels) + "]"
    bad(lists(5000), tooDeep)
    bad(ors(5000), tooDeep)
    bad(lists(64), tooDeep)
    // 64 levels (63 lists around the condition object) are judged as a filter.
    assert.notDeepEqual(errorsOf(lists(63)), tooDeep)
    assert.notDeepEqual(errorsOf(ors(31)), tooDeep)
  })

  it("a condition that is not an object", () => {
    bad([5], { "complex_filters.0": ["The complex filters.0 field must be an array."] })
    bad([null, "x"], {
      "complex_filters.0": ["The complex filters.0 field must be an array."],
      "complex_filters.1": ["The complex filters.1 field must be an array."]
    })
  })

  it("the property", () => {
    bad([{ operator: "eq", value: 1 }], { "complex_filters.0.property": ["The complex filters.0.property field is required."] })
    bad([{ property: "", operator: "is_empty" }], {
      "complex_filters.0.property": ["The complex filters.0.property field is required."]
    })
    bad([{ property: 5, operator: "is_empty" }], {
      "complex_filters.0.property": ["The complex filters.0.property field must be a string."]
    })
    bad([{ property: "nope", operator: "eq", value: 1 }], {
      "complex_filters.0.property": ["The selected complex filters.0.property is invalid."]
    })
    // contact_ids exists for deals only.
    bad([{ property: "contact_ids", operator: "in", value: [ID_A] }], {
      "complex_filters.0.property": ["The selected complex filters.0.property is invalid."]
    })
  })

  it("the operator", () => {
    const invalid = (i: number) => ({ [`complex_filters.${i}.operator`]: [`The selected complex filters.${i}.operator is invalid.`] })
    bad([{ property: "amount", value: 1 }], { "complex_filters.0.operator": ["The complex filters.0.operator field is required."] })
    bad([{ property: "amount", operator: ["eq"], value: 1 }], {
      "complex_filters.0.operator": ["The complex filters.0.operator field must be a string."]
    })
    bad([{ property: "amount", operator: "like", value: 1 }], invalid(0))
    bad([{ property: "amount", operator: "gt", value: 1 }, { property: "is_hot", operator: "gt", value: true }], invalid(1))
    bad([{ property: "amount", operator: "contains", value: "1" }], invalid(0))
    bad([{ property: "deal_name", operator: "gt", value: "a" }], invalid(0))
    bad([{ property: "deal_stage", operator: "starts_with", value: "closed" }], invalid(0))
    bad([{ property: "tags", operator: "gt", value: "red" }], invalid(0))
    bad([{ property: "is_hot", operator: "between", value: [false, true] }], invalid(0))
    bad([{ property: "contact_ids", operator: "eq", value: ID_A }], invalid(0), DEAL)
    // An unknown property and a bad operator are both reported.
    bad([{ property: "nope", operator: "like" }], {
      "complex_filters.0.property": ["The selected complex filters.0.property is invalid."],
      ...invalid(0)
    })
  })

  it("a missing or superfluous value", () => {
    const required = { "complex_filters.0.value": ["The complex filters.0.value field is required."] }
    bad([{ property: "amount", operator: "eq" }], required)
    bad([{ property: "amount", operator: "eq", value: null }], required)
    bad([{ property: "deal_name", operator: "eq", value: "" }], required)
    bad([{ property: "deal_name", operator: "contains", value: "   " }], required)
    bad([{ property: "amount", operator: "in", value: [] }], required)
    bad([{ property: "amount", operator: "is_empty", value: 3 }], {
      "complex_filters.0.value": ["The complex filters.0.value field is prohibited."]
    })
    // An empty bracket value is no value (ConvertEmptyStringsToNull).
    assert.deepStrictEqual(
      errorsOf({ "complex_filters[0][property]": "amount", "complex_filters[0][operator]": "eq", "complex_filters[0][value]": "" }),
      required
    )
    assert.deepStrictEqual(
      parse({ "complex_filters[0][property]": "amount", "complex_filters[0][operator]": "is_empty", "complex_filters[0][value]": "" }),
      [cond("amount", "number", "is_empty")]
    )
  })

  it("a value of the wrong type", () => {
    const v = (message: string) => ({ "complex_filters.0.value": [message] })
    bad([{ property: "amount", operator: "eq", value: "abc" }], v("The complex filters.0.value field must be a number."))
    bad([{ property: "amount", operator: "eq", value: [1] }], v("The complex filters.0.value field must be a number."))
    bad([{ property: "amount", operator: "eq", value: "1,5" }], v("The complex filters.0.value field must be a number."))
    bad([{ property: "is_hot", operator: "eq", value: "yes" }], v("The complex filters.0.value field must be true or false."))
    bad([{ property: "is_hot", operator: "eq", value: 2 }], v("The complex filters.0.value field must be true or false."))
    bad([{ property: "birthdate", operator: "gt", value: "soon" }], v("The complex filters.0.value field must be a valid date."))
    bad([{ property: "birthdate", operator: "gt", value: "2026-02-30" }], v("The complex filters.0.value field must be a valid date."))
    bad([{ property: "created_at", operator: "gt", value: { when: 1 } }], v("The complex filters.0.value field must be a valid date."))
    bad([{ property: "deal_stage", operator: "eq", value: "won" }], v("The selected complex filters.0.value is invalid."))
    bad([{ property: "deal_stage", operator: "eq", value: "Closed_Won" }], v("The selected complex filters.0.value is invalid."))
    bad([{ property: "tags", operator: "contains", value: "purple" }], v("The selected complex filters.0.value is invalid."))
    bad([{ property: "deal_name", operator: "eq", value: 5 }], v("The complex filters.0.value field must be a string."))
    bad([{ property: "deal_name", operator: "eq", value: { a: 1 } }], v("The complex filters.0.value field must be a string."))
  })

  it("list values: a list, at most 100, each element checked under its index", () => {
    const v = (message: string) => ({ "complex_filters.0.value": [message] })
    bad([{ property: "amount", operator: "in", value: 5 }], v("The complex filters.0.value field must be a list."))
    bad([{ property: "amount", operator: "not_in", value: { a: 1 } }], v("The complex filters.0.value field must be a list."))
    bad(
      [{ property: "amount", operator: "in", value: Array.from({ length: 101 }, (_, i) => i) }],
      v("The complex filters.0.value field must not have more than 100 items.")
    )
    assert.strictEqual(
      (parse(json([{ property: "amount", operator: "in", value: Array.from({ length: 100 }, (_, i) => i) }]))[0] as {
        readonly value: ReadonlyArray<number>
      }).value.length,
      100
    )
    bad([{ property: "amount", operator: "in", value: [1, "x", 3, null] }], {
      "complex_filters.0.value.1": ["The complex filters.0.value.1 field must be a number."],
      "complex_filters.0.value.3": ["The complex filters.0.value.3 field is required."]
    })
    bad([{ property: "tags", operator: "not_in", value: ["red", "pink"] }], {
      "complex_filters.0.value.1": ["The selected complex filters.0.value.1 is invalid."]
    })
    bad([{ property: "contact_ids", operator: "in", value: [ID_A, "65A1B2C3D4E5F60718293A4B", 7] }], {
      "complex_filters.0.value.1": ["The complex filters.0.value.1 field format is invalid."],
      "complex_filters.0.value.2": ["The complex filters.0.value.2 field format is invalid."]
    }, DEAL)
  })

  it("between: exactly [low, high]", () => {
    const v = (message: string) => ({ "complex_filters.0.value": [message] })
    bad([{ property: "amount", operator: "between", value: 5 }], v("The complex filters.0.value field must be a list."))
    bad([{ property: "amount", operator: "between", value: [1] }], v("The complex filters.0.value field must contain 2 items."))
    bad([{ property: "amount", operator: "between", value: [1, 2, 3] }], v("The complex filters.0.value field must contain 2 items."))
    bad([{ property: "created_at", operator: "between", value: ["2026-01-01", "later"] }], {
      "complex_filters.0.value.1": ["The complex filters.0.value.1 field must be a valid date."]
    })
  })

  it("or-groups: one level, not empty, nothing else beside", () => {
    const c = { property: "amount", operator: "gt", value: 1 }
    bad([c, c, { or: [{ or: [c] }] }], { "complex_filters.2.or.0.or": ["The complex filters.2.or.0.or field is prohibited."] })
    bad([{ or: [] }], { "complex_filters.0.or": ["The complex filters.0.or field is required."] })
    bad([{ or: "x" }], { "complex_filters.0.or": ["The complex filters.0.or field must be a list."] })
    bad([{ or: [c], property: "amount" }], { "complex_filters.0.property": ["The complex filters.0.property field is prohibited."] })
    bad([c, c, { or: [c, { operator: "eq", value: 1 }] }], {
      "complex_filters.2.or.1.property": ["The complex filters.2.or.1.property field is required."]
    })
    bad([{ or: [{ property: "is_hot", operator: "contains", value: "x" }] }], {
      "complex_filters.0.or.0.operator": ["The selected complex filters.0.or.0.operator is invalid."]
    })
    bad([{ or: [7] }], { "complex_filters.0.or.0": ["The complex filters.0.or.0 field must be an array."] })
  })

  it("reports every failure together, in input order", () => {
    bad([
      { property: "amount", operator: "gt", value: "x" },
      { property: "nope", operator: "eq", value: 1 },
      { or: [{ property: "is_hot", operator: "eq" }] }
    ], {
      "complex_filters.0.value": ["The complex filters.0.value field must be a number."],
      "complex_filters.1.property": ["The selected complex filters.1.property is invalid."],
      "complex_filters.2.or.0.value": ["The complex filters.2.or.0.value field is required."]
    })
  })

  it("an inherited __proto__ key lends nothing", () => {
    assert.deepStrictEqual(
      errorsOf({ "complex_filters[0][__proto__][property]": "amount", "complex_filters[0][operator]": "is_empty" }),
      { "complex_filters.0.property": ["The complex filters.0.property field is required."] }
    )
  })
})

// ---------------------------------------------------------------------------------------------
// The evaluator
// ---------------------------------------------------------------------------------------------

const AT = utc("2026-03-10T12:00:00.000Z")
const plusMs = (d: DateTime.Utc, ms: number) => DateTime.makeUnsafe(DateTime.toEpochMillis(d) + ms)

/** [condition, record value (undefined: absent), expected]. */
type Row = readonly [Condition, unknown, boolean]

const truth = (name: string, rows: ReadonlyArray<Row>) =>
  it(name, () => {
    rows.forEach(([condition, value, expected], i) => {
      const values = value === undefined ? {} : { [condition.property]: value }
      assert.strictEqual(
        matchesCondition(values, condition),
        expected,
        `row ${i}: ${condition.operator} ${json("value" in condition ? condition.value : null)} on ${json(value)}`
      )
      assert.strictEqual(matchesFilters(values, [condition]), expected)
    })
  })

describe("matchesFilters: truth tables", () => {
  const s = (op: Condition["operator"], v?: unknown) => cond("deal_name", "string", op, v)
  truth("text: equality and lists are case-insensitive", [
    [s("eq", "Acme"), "acme", true],
    [s("eq", "Acme"), "ACME", true],
    [s("eq", "Acme"), "Acme Corp", false],
    [s("eq", "Acme"), undefined, false],
    [s("eq", "Acme"), null, false],
    [s("neq", "Acme"), "aCME", false],
    [s("neq", "Acme"), "Other", true],
    [s("neq", "Acme"), undefined, false],
    [s("neq", "Acme"), null, false],
    [s("neq", "Acme"), "", false],
    [s("in", ["a", "B"]), "b", true],
    [s("in", ["a", "B"]), "c", false],
    [s("in", ["a", "B"]), undefined, false],
    [s("not_in", ["a", "B"]), "b", false],
    [s("not_in", ["a", "B"]), "c", true],
    [s("not_in", ["a", "B"]), undefined, false],
    [s("eq", "5"), 5, false]
  ])

  truth("text: substring tests are case-insensitive", [
    [s("contains", "CM"), "Acme", true],
    [s("contains", "cm"), "xyz", false],
    [s("contains", "cm"), undefined, false],
    [s("not_contains", "CM"), "Acme", false],
    [s("not_contains", "cm"), "xyz", true],
    [s("not_contains", "cm"), undefined, false],
    [s("not_contains", "cm"), "", false],
    [s("starts_with", "ac"), "Acme", true],
    [s("starts_with", "ac"), "The Acme", false],
    [s("ends_with", "ME"), "Acme", true],
    [s("ends_with", "ME"), "Acme Co", false],
    [s("ends_with", "ME"), null, false]
  ])

  truth("presence: absent, null, \"\" and [] are no value; 0 and false are values", [
    [s("is_empty"), undefined, true],
    [s("is_empty"), null, true],
    [s("is_empty"), "", true],
    [s("is_empty"), [], true],
    [s("is_empty"), "x", false],
    [s("is_empty"), " ", false],
    [s("is_not_empty"), undefined, false],
    [s("is_not_empty"), "", false],
    [s("is_not_empty"), "x", true],
    [s("is_not_empty"), 5, true],
    [cond("amount", "number", "is_empty"), 0, false],
    [cond("is_hot", "boolean", "is_empty"), false, false],
    [cond("tags", "multi_select", "is_empty"), [], true],
    [cond("tags", "multi_select", "is_not_empty"), ["red"], true]
  ])

  const n = (op: Condition["operator"], v?: unknown) => cond("amount", "number", op, v)
  truth("number", [
    [n("eq", 5), 5, true],
    [n("eq", 5), "5", true],
    [n("eq", 5), 6, false],
    [n("eq", 0), 0, true],
    [n("neq", 5), 6, true],
    [n("neq", 5), 5, false],
    [n("neq", 5), undefined, false],
    [n("gt", 5), 6, true],
    [n("gt", 5), 5, false],
    [n("gte", 5), 5, true],
    [n("gte", 5), 4.99, false],
    [n("lt", 5), 4, true],
    [n("lt", 5), 5, false],
    [n("lte", 5), 5, true],
    [n("lte", 5), 5.01, false],
    [n("lt", 5), undefined, false],
    [n("between", [1, 3]), 1, true],
    [n("between", [1, 3]), 3, true],
    [n("between", [1, 3]), 2.5, true],
    [n("between", [1, 3]), 0.99, false],
    [n("between", [1, 3]), 3.01, false],
    [n("between", [3, 1]), 2, false],
    [n("in", [1, 2]), 2, true],
    [n("in", [1, 2]), 3, false],
    [n("not_in", [1, 2]), 3, true],
    [n("not_in", [1, 2]), 1, false],
    [n("not_in", [1, 2]), undefined, false],
    [n("gt", 1), "many", false],
    [n("is_not_empty"), "many", true]
  ])

  const b = (op: Condition["operator"], v?: unknown) => cond("is_hot", "boolean", op, v)
  truth("boolean", [
    [b("eq", true), true, true],
    [b("eq", true), false, false],
    [b("eq", false), false, true],
    [b("neq", true), false, true],
    [b("neq", true), true, false],
    [b("neq", true), undefined, false],
    [b("in", [true]), true, true],
    [b("not_in", [true]), false, true]
  ])

  const d = (op: Condition["operator"], v?: unknown) => cond("birthdate", "date", op, v)
  const day = utc("1990-05-17T00:00:00Z")
  truth("date: by UTC calendar day, any input form", [
    [d("eq", day), "1990-05-17", true],
    [d("eq", day), "1990-05-17T23:59:59Z", true],
    [d("eq", day), "1990-05-18T00:00:00Z", false],
    [d("gt", day), "1990-05-17T23:00:00Z", false],
    [d("gt", day), "1990-05-18", true],
    [d("lte", day), DateTime.toEpochMillis(day) + 3_600_000, true],
    [d("between", [day, utc("1990-05-20T00:00:00Z")]), "1990-05-20T18:00:00Z", true],
    [d("between", [day, utc("1990-05-20T00:00:00Z")]), "1990-05-21", false],
    [d("eq", day), "not a date", false]
  ])

  const t = (op: Condition["operator"], v?: unknown) => cond("last_contacted_at", "datetime", op, v)
  truth("datetime: by millisecond", [
    [t("eq", AT), "2026-03-10T12:00:00.000000Z", true],
    [t("eq", AT), plusMs(AT, 1), false],
    [t("gt", AT), plusMs(AT, 1), true],
    [t("gt", AT), AT, false],
    [t("gte", AT), { $date: { $numberLong: String(DateTime.toEpochMillis(AT)) } }, true],
    [t("lt", AT), plusMs(AT, -1), true],
    [t("lte", AT), plusMs(AT, 1), false],
    [t("neq", AT), plusMs(AT, 1), true],
    [t("neq", AT), undefined, false],
    [t("in", [AT, plusMs(AT, 5)]), DateTime.toEpochMillis(AT) + 5, true],
    [t("not_in", [AT]), plusMs(AT, 5), true]
  ])

  const ss = (op: Condition["operator"], v?: unknown) => cond("deal_stage", "single_select", op, v)
  truth("single_select", [
    [ss("eq", "closed_won"), "closed_won", true],
    [ss("eq", "closed_won"), "closed_lost", false],
    [ss("neq", "closed_won"), "closed_lost", true],
    [ss("neq", "closed_won"), undefined, false],
    [ss("in", ["closed_won", "closed_lost"]), "closed_lost", true],
    [ss("not_in", ["closed_won", "closed_lost"]), "qualified_to_buy", true],
    [ss("not_in", ["closed_won"]), null, false]
  ])

  const m = (op: Condition["operator"], v?: unknown) => cond("tags", "multi_select", op, v)
  truth("multi_select: element membership", [
    [m("eq", "red"), ["red", "blue"], true],
    [m("eq", "red"), ["green"], false],
    [m("eq", "Mixed Case"), ["mixed case"], true],
    [m("eq", "red"), "red", true],
    [m("neq", "red"), ["green"], true],
    [m("neq", "red"), ["green", "red"], false],
    [m("neq", "red"), [], false],
    [m("neq", "red"), undefined, false],
    [m("contains", "blue"), ["blue"], true],
    [m("contains", "blue"), ["blueish"], false],
    [m("not_contains", "blue"), ["red"], true],
    [m("not_contains", "blue"), ["red", "blue"], false],
    [m("not_contains", "blue"), [], false],
    [m("in", ["red", "green"]), ["blue", "green"], true],
    [m("in", ["red", "green"]), ["blue"], false],
    [m("not_in", ["red"]), ["blue"], true],
    [m("not_in", ["red"]), ["red", "blue"], false],
    [m("not_in", ["red"]), undefined, false]
  ])

  const r = (v: ReadonlyArray<string>) => cond("contact_ids", "record_ids", "in", v)
  truth("record_ids (deal contact_ids)", [
    [r([ID_A]), [ID_B, ID_A], true],
    [r([ID_A]), [ID_B], false],
    [r([ID_A]), [], false],
    [r([ID_A]), undefined, false]
  ])

  it("all nodes must hold; an or-group needs one of its conditions; no nodes hold for all", () => {
    const values = { amount: 5, is_hot: false, deal_name: "Acme" }
    const hot = cond("is_hot", "boolean", "eq", true)
    const small = cond("amount", "number", "lt", 10)
    const named = cond("deal_name", "string", "starts_with", "ac")
    assert.isTrue(matchesFilters(values, []))
    assert.isTrue(matchesFilters({}, []))
    assert.isTrue(matchesFilters(values, [named, { _tag: "Or", conditions: [hot, small] }]))
    assert.isFalse(matchesFilters(values, [named, { _tag: "Or", conditions: [hot] }]))
    assert.isFalse(matchesFilters(values, [hot, small]))
    assert.isTrue(matchesFilters(values, [named, small]))
  })

  it("reads own values only", () => {
    const values = Object.create({ deal_name: "Acme" }) as Record<string, unknown>
    assert.isFalse(matchesCondition(values, cond("deal_name", "string", "eq", "Acme")))
    assert.isTrue(matchesCondition(values, cond("deal_name", "string", "is_empty")))
  })
})

// ---------------------------------------------------------------------------------------------
// Evaluator laws
// ---------------------------------------------------------------------------------------------

/** A present record value for a filter property, in the type's natural form. */
const recordValueArb = (p: (typeof FILTER_PROPERTIES)[number]): fc.Arbitrary<unknown> => {
  const scalar = scalarArb(p.type, p.options)
  if (p.type === "multi_select" || p.type === "record_ids") return fc.array(scalar, { minLength: 1, maxLength: 4 })
  return scalar
}

/** A condition with a record value for its property: present, or any form of no value. */
const caseArb = conditionArb.chain((condition) => {
  const p = FILTER_PROPERTIES.find((q) => q.name === condition.property)!
  return fc.tuple(
    fc.constant(condition),
    fc.oneof(
      { weight: 4, arbitrary: recordValueArb(p) },
      { weight: 1, arbitrary: fc.constantFrom(undefined, null, "", []) }
    )
  )
})

const NEGATIONS: Partial<Record<Condition["operator"], Condition["operator"]>> = {
  neq: "eq",
  not_in: "in",
  not_contains: "contains"
}

describe("matchesFilters: laws", () => {
  const holds = (condition: Condition, value: unknown) =>
    matchesCondition(value === undefined ? {} : { [condition.property]: value }, condition)

  it("is_empty and is_not_empty are complements; no value fails every other operator", () => {
    fc.assert(
      fc.property(caseArb, ([condition, value]) => {
        const empty = holds({ ...condition, operator: "is_empty" } as Condition, value)
        assert.strictEqual(empty, hasNoValue(value))
        assert.strictEqual(holds({ ...condition, operator: "is_not_empty" } as Condition, value), !empty)
        if (empty && condition.operator !== "is_empty") assert.isFalse(holds(condition, value))
      }),
      { numRuns: 500 }
    )
  })

  it("on a present value, neq / not_in / not_contains are the negations of eq / in / contains", () => {
    fc.assert(
      fc.property(caseArb, ([condition, value]) => {
        const positive = NEGATIONS[condition.operator]
        if (positive === undefined || hasNoValue(value)) return
        assert.strictEqual(holds(condition, value), !holds({ ...condition, operator: positive } as Condition, value))
      }),
      { numRuns: 500 }
    )
  })

  it("between [low, high] is gte low and lte high", () => {
    fc.assert(
      fc.property(caseArb, ([condition, value]) => {
        if (condition.operator !== "between") return
        const [low, high] = condition.value
        const gte = holds({ ...condition, operator: "gte", value: low } as Condition, value)
        const lte = holds({ ...condition, operator: "lte", value: high } as Condition, value)
        assert.strictEqual(holds(condition, value), gte && lte)
      }),
      { numRuns: 500 }
    )
  })

  it("a list of nodes is a conjunction; an or-group a disjunction", () => {
    fc.assert(
      fc.property(fc.array(caseArb, { minLength: 1, maxLength: 4 }), (cases) => {
        const values: Record<string, unknown> = {}
        for (const [c, v] of cases) if (v !== undefined) values[c.property] = v
        const conditions = cases.map(([c]) => c)
        const each = conditions.map((c) => matchesCondition(values, c))
        assert.strictEqual(matchesFilters(values, conditions), each.every(Boolean))
        assert.strictEqual(matchesFilters(values, [{ _tag: "Or", conditions }]), each.some(Boolean))
      }),
      { numRuns: 300 }
    )
  })

  it("a parsed filter evaluates like the AST it came from (the oracle sees what the client sent)", () => {
    fc.assert(
      fc.property(filtersArb, fc.array(caseArb, { maxLength: 6 }), (filters, cases) => {
        const values: Record<string, unknown> = {}
        for (const [c, v] of cases) if (v !== undefined) values[c.property] = v
        const parsed = parse(complexFiltersToQuery(filters), DEAL)
        assert.strictEqual(matchesFilters(values, parsed), matchesFilters(values, filters))
      }),
      { numRuns: 200 }
    )
  })
})
