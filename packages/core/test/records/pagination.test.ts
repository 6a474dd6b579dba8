import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import { type ListQueryInput, parsePageParams } from "../../src/Records.ts"

const errorsOf = <A>(effect: Effect.Effect<A, { readonly errors: Record<string, ReadonlyArray<string>> }>) =>
  Effect.runSync(Effect.flip(effect)).errors

const PositiveInt = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000 }))
const PerPage = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))

describe("parsePageParams", () => {
  const ok = (query: ListQueryInput) => Effect.runSync(parsePageParams(query))

  it("defaults to page 1 and 15 per page", () => {
    assert.deepStrictEqual(ok({}), { page: 1, perPage: 15 })
    assert.deepStrictEqual(ok({ page: null, per_page: null }), { page: 1, perPage: 15 })
  })

  it("reads integers", () => {
    assert.deepStrictEqual(ok({ page: "3", per_page: "100" }), { page: 3, perPage: 100 })
    assert.deepStrictEqual(ok({ page: "2", per_page: "+1" }), { page: 2, perPage: 1 })
  })

  it("refuses with Laravel's messages, every failing rule of each key", () => {
    const cases: ReadonlyArray<readonly [ListQueryInput, Record<string, ReadonlyArray<string>>]> = [
      [{ per_page: "101" }, { per_page: ["The per page field must not be greater than 100."] }],
      [{ per_page: "0" }, { per_page: ["The per page field must be at least 1."] }],
      [{ per_page: "abc" }, { per_page: ["The per page field must be an integer."] }],
      [{ per_page: "1.5" }, { per_page: ["The per page field must be an integer."] }],
      [{ per_page: "0.5" }, {
        per_page: ["The per page field must be an integer.", "The per page field must be at least 1."]
      }],
      [{ per_page: "1e3" }, {
        per_page: ["The per page field must be an integer.", "The per page field must not be greater than 100."]
      }],
      [{ page: "0" }, { page: ["The page field must be at least 1."] }],
      [{ page: "-4" }, { page: ["The page field must be at least 1."] }],
      [{ page: "05" }, { page: ["The page field must be an integer."] }],
      [{ page: ["1"] }, { page: ["The page field must be an integer."] }],
      [{ page: "x", per_page: "500" }, {
        page: ["The page field must be an integer."],
        per_page: ["The per page field must not be greater than 100."]
      }],
      [{ page: "9007199254740992" }, { page: ["The page field must not be greater than 9007199254740991."] }]
    ]
    for (const [query, errors] of cases) {
      assert.deepStrictEqual(errorsOf(parsePageParams(query)), errors, JSON.stringify(query))
    }
  })

  it.prop("every integer 1..100 is a valid per_page, and every page ≥ 1", [PerPage, PositiveInt], ([perPage, page]) => {
    assert.deepStrictEqual(ok({ page: String(page), per_page: String(perPage) }), { page, perPage })
  })

  it.prop(
    "per_page above 100 fails only on its maximum",
    [Schema.Int.check(Schema.isBetween({ minimum: 101, maximum: 1_000_000_000 }))],
    ([perPage]) => {
      const exit = Effect.runSyncExit(parsePageParams({ per_page: String(perPage) }))
      assert.isTrue(Exit.isFailure(exit))
      assert.deepStrictEqual(errorsOf(parsePageParams({ per_page: String(perPage) })), {
        per_page: ["The per page field must not be greater than 100."]
      })
    }
  )
})
