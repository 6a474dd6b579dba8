/** The list query: defaults, synonyms, and one 422 carrying every bad key. */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { BUILTIN_GROUPS, parseRecordListQuery, type PropertyDefinition } from "../../src/Records.ts"
import { RecordId } from "../../src/Wire.ts"

const score: PropertyDefinition = {
  _id: RecordId.make("0123456789abcdef01234567"),
  type: "number",
  name: { en: "Score" },
  desc: null,
  internal_name: "score",
  group_id: BUILTIN_GROUPS.deal._id,
  account_id: 1,
  made_by: 1,
  created_at: DateTime.makeUnsafe(0),
  updated_at: DateTime.makeUnsafe(0),
  kind: "deal",
  builtin: false,
  readOnly: false,
  required: false
}

describe("parseRecordListQuery", () => {
  it.effect("defaults: page 1 of 15, created_at desc, no search, no filters", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* parseRecordListQuery("deal", {}, []), {
        page: 1,
        perPage: 15,
        search: undefined,
        order: "created_at",
        direction: "desc",
        filters: []
      })
    }))

  it.effect("orders by built-in, derived and custom properties; forcast_amount means forecast_amount", () =>
    Effect.gen(function*() {
      const read = (order: string, kind: "deal" | "contact" = "deal") =>
        Effect.map(parseRecordListQuery(kind, { order, direction: "ASC" }, [score]), (q) => [q.order, q.direction])
      assert.deepStrictEqual(yield* read("score"), ["score", "asc"])
      assert.deepStrictEqual(yield* read("forcast_amount"), ["forecast_amount", "asc"])
      assert.deepStrictEqual(yield* read("updated_at"), ["updated_at", "asc"])
      assert.deepStrictEqual(yield* read("fullname", "contact"), ["fullname", "asc"])
    }))

  it.effect("an empty search is no search", () =>
    Effect.gen(function*() {
      assert.isUndefined((yield* parseRecordListQuery("deal", { search: null }, [])).search)
      assert.strictEqual((yield* parseRecordListQuery("deal", { search: "big" }, [])).search, "big")
    }))

  it.effect("gathers every bad key into one failure", () =>
    Effect.gen(function*() {
      const failure = yield* Effect.flip(parseRecordListQuery("deal", {
        page: "0",
        search: ["x"],
        order: "score",
        direction: "up",
        complex_filters: "[{\"property\":\"amount\",\"operator\":\"near\",\"value\":1}]"
      }, []))
      assert.deepStrictEqual(Object.keys(failure.errors).sort(), [
        "complex_filters.0.operator",
        "direction",
        "order",
        "page",
        "search"
      ])
      assert.deepStrictEqual(failure.errors.order, ["The selected order is invalid."])
      assert.deepStrictEqual(failure.errors.search, ["The search field must be a string."])
    }))
})
