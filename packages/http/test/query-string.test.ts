/**
 * The query string as PHP and Laravel read it, and the list parameters the edge hands the core.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { parsePageParams, parseRecordListQuery } from "@wasl/core/Records"
import { buildPhpQuery, cleanLikeLaravel, parseListQuery, parsePhpQuery, phpToJs, type QueryInput } from "../src/query-string.ts"

const errorsOf = <A>(effect: Effect.Effect<A, { readonly errors: Record<string, ReadonlyArray<string>> }>) =>
  Effect.runSync(Effect.flip(effect)).errors

describe("PHP query parsing", () => {
  it("nests bracket names, appends with [], lets the last plain value win", () => {
    const parsed = parsePhpQuery([
      ["a[]", "1"],
      ["a[]", "2"],
      ["b[x][y]", "3"],
      ["c", "1"],
      ["c", "2"],
      ["d[", "4"],
      ["e[k]tail", "5"],
      [" f.g h", "6"],
      ["", "7"],
      ["[x]", "8"]
    ])
    assert.deepStrictEqual(phpToJs(parsed), {
      a: ["1", "2"],
      b: { x: { y: "3" } },
      c: "2",
      "d_": "4",
      e: { k: "5" },
      "f_g_h": "6"
    })
  })

  it("rebuilds the same query string for plain indexed names", () => {
    const pairs: QueryInput = [["a[0]", "x y"], ["a[1]", "z"], ["b", "1"]]
    assert.strictEqual(buildPhpQuery(cleanLikeLaravel(parsePhpQuery(pairs))), "a%5B0%5D=x%20y&a%5B1%5D=z&b=1")
  })
})

describe("parseListQuery: the page parameters as the query string carries them", () => {
  const ok = (query: QueryInput) => Effect.runSync(parsePageParams(parseListQuery(query)))

  it("blank values mean the defaults; integers are trimmed", () => {
    assert.deepStrictEqual(ok({ page: "", per_page: "  " }), { page: 1, perPage: 15 })
    assert.deepStrictEqual(ok({ page: " 2 ", per_page: "+1" }), { page: 2, perPage: 1 })
  })

  it("a bracket name is an array, not an integer", () => {
    assert.deepStrictEqual(errorsOf(parsePageParams(parseListQuery({ "page[]": ["1"] }))), {
      page: ["The page field must be an integer."]
    })
  })
})

describe("parseListQuery: the list's search as the query string carries it", () => {
  it.effect("a blank search is no search; a trimmed one is kept", () =>
    Effect.gen(function*() {
      assert.isUndefined((yield* parseRecordListQuery("deal", parseListQuery([["search", "   "]]), [])).search)
      assert.strictEqual((yield* parseRecordListQuery("deal", parseListQuery([["search", " big "]]), [])).search, "big")
    }))
})
