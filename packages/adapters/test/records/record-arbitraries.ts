/**
 * Random record values and `complex_filters` for the property tests of the record adapters
 * (list-statement.property.test.ts, record-repository.differential.test.ts): texts whose case folding
 * PostgreSQL's lower() and JavaScript agree on, with LIKE metacharacters, code points past U+FFFF
 * and texts longer than the 255-character sort key; numbers, instants and days that tie; and
 * conditions in the shapes the core's parser produces.
 */
import {
  type Condition,
  type FilterNode,
  type FilterScalar,
  type FilterValueType,
  operatorsFor
} from "@wasl/core/Records"
import fc from "fast-check"

/** A property as the generators see it: its name, the type it compares under, its options. */
export interface TestProperty {
  readonly name: string
  readonly type: FilterValueType
  readonly options?: ReadonlyArray<string>
}

export const TEXTS = [
  "alpha",
  "Alpha",
  "ALPHA beta",
  "beta",
  "béta",
  "BÉTA",
  "50%_off",
  "50% off",
  "a\\b",
  "x_y",
  "ωmega",
  "ΩMEGA",
  "عربي",
  "ｚ",
  "\u{20000}",
  "deal",
  "Deal 1",
  "deal_1"
]
/** Equal in their first 255 characters but for case, or not. */
export const LONG_TEXTS = ["x".repeat(300) + "A", "X".repeat(300) + "b", "x".repeat(254) + "B"]
export const ALPHABET = ["a", "A", "b", "B", "%", "_", "\\", " ", "é", "É", "ω", "Ω"]
export const FRAGMENTS = ["a", "al", "%", "_", "\\", "é", "É", "ta", "ω", "Ω", "0%", "ha", "Alpha", "BETA", "deal", "L_", "1"]
export const NUMBERS = [-2, -1.5, -0, 0, 0.5, 1, 2, 3, 12, 100, 1e21]
export const DATETIMES = [
  "2025-12-31T23:59:59.999000Z",
  "2026-01-05T00:00:00.000000Z",
  "2026-01-05T12:30:00.000000Z",
  "2026-01-05T12:30:00.001000Z",
  "2026-01-06T00:00:00.000000Z"
]
export const DATES = ["2026-01-04", "2026-01-05", "2026-01-06"]

export const textArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TEXTS) },
  { weight: 1, arbitrary: fc.constantFrom(...LONG_TEXTS) },
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 5 }) }
)

/** A value of a property (a multi_select's may repeat an option: the stores keep it once). */
export const valueArb = (p: TestProperty): fc.Arbitrary<string | number | boolean | Array<string>> => {
  switch (p.type) {
    case "number":
      return fc.constantFrom(...NUMBERS)
    case "boolean":
      return fc.boolean()
    case "datetime":
      return fc.constantFrom(...DATETIMES)
    case "date":
      return fc.constantFrom(...DATES)
    case "single_select":
      return fc.constantFrom(...p.options!)
    case "multi_select":
      return fc.array(fc.constantFrom(...p.options!), { minLength: 1, maxLength: 3 })
    default:
      return textArb
  }
}

/** A filter text: a whole text or a fragment of one. */
export const filterTextArb = fc.oneof(fc.constantFrom(...TEXTS), fc.constantFrom(...FRAGMENTS))

/** A condition on one of `properties`, any operator of its type, values from `scalarArb`. */
export const conditionArb = (
  properties: ReadonlyArray<TestProperty>,
  scalarArb: (p: TestProperty) => fc.Arbitrary<FilterScalar>
): fc.Arbitrary<Condition> =>
  fc.constantFrom(...properties).chain((p) =>
    fc.constantFrom(...operatorsFor(p.type)).chain((operator): fc.Arbitrary<Condition> => {
      const base = { _tag: "Condition", property: p.name, type: p.type } as const
      const scalar = scalarArb(p)
      switch (operator) {
        case "is_empty":
        case "is_not_empty":
          return fc.constant({ ...base, operator })
        case "in":
        case "not_in":
          return fc.array(scalar, { minLength: 1, maxLength: 3 }).map((value) => ({ ...base, operator, value }))
        case "between":
          return fc.tuple(scalar, scalar).map((value) => ({ ...base, operator, value }))
        default:
          return scalar.map((value) => ({ ...base, operator, value }))
      }
    })
  )

/** A condition, or now and then an or-group of one to three. */
export const nodeArb = (condition: fc.Arbitrary<Condition>): fc.Arbitrary<FilterNode> =>
  fc.oneof(
    { weight: 3, arbitrary: condition },
    {
      weight: 1,
      arbitrary: fc.array(condition, { minLength: 1, maxLength: 3 }).map((conditions) => ({ _tag: "Or" as const, conditions }))
    }
  )
