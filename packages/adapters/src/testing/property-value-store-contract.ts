/** The contract suite of `PropertyValueStore` (documented on `propertyValueStoreContract`). */
import { assert, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import {
  type PropertyDefinition,
  PropertyValueStore,
  RecordRepository,
  type RecordListParams,
  type StoredValue
} from "@wasl/core/Records"
import { Duration, Effect, type Layer, Option } from "effect"
import { asRecordId, condition as cond, customProperty, freshIds, idsOf, listInput, newAccountId } from "./record-contract-support.ts"

/** What the layer under `propertyValueStoreContract` provides. */
export type PropertyValueStoreContractServices = PropertyValueStore | RecordRepository | AccountRepository

/** Deals of the account holding these values of `property` (no value for undefined), ids ascending. */
const dealsWith = (accountId: number, property: PropertyDefinition, values: ReadonlyArray<StoredValue | undefined>) =>
  Effect.gen(function*() {
    const repo = yield* RecordRepository
    const ids = freshIds(values.length)
    for (const [i, value] of values.entries()) {
      yield* repo.insert({
        accountId,
        kind: "deal",
        id: ids[i]!,
        custom: [property],
        values: value === undefined ? { deal_name: "d" } : { deal_name: "d", [property.internal_name]: value }
      })
    }
    return ids
  })

const valueOf = (accountId: number, property: PropertyDefinition, id: string) =>
  Effect.map(
    RecordRepository.use((repo) => repo.get({ accountId, kind: "deal", id, custom: [property] })),
    (found) => Option.getOrThrow(found).record.values[property.internal_name]
  )

const sorted = (values: ReadonlyArray<StoredValue>) => [...values].map((v) => JSON.stringify(v)).sort()

/**
 * The contract of `PropertyValueStore` over every implementation (memory, PGlite, PostgreSQL, or
 * yours), through the records of `RecordRepository`: the distinct values one custom property holds
 * in an account's records of its kind; a conversion rewrites them (to null: clears them) and lists
 * then filter and order them under the property's new type; a dropped property's values leave the
 * records. Another account's records, even with the same property id, are never touched.
 *
 * Each test makes its own accounts, so the suite can share a database with others.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `PropertyValueStore` (under test), `RecordRepository` (over the
 *   same store) and `AccountRepository`.
 */
export const propertyValueStoreContract = <E>(
  name: string,
  implementation: Layer.Layer<PropertyValueStoreContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("valuesOf: the distinct values of one property in the account's records of its kind", () =>
      Effect.gen(function*() {
        const store = yield* PropertyValueStore
        const mine = yield* newAccountId
        const theirs = yield* newAccountId
        const tags = customProperty(mine, "deal", "tags", "multi_select", ["a", "b"])
        const other = customProperty(mine, "deal", "other", "string")
        yield* dealsWith(mine, tags, [["a", "b"], ["a", "b"], ["b", "a"], ["a"], undefined])
        yield* dealsWith(mine, other, ["x"])
        yield* dealsWith(theirs, tags, [["b"]])
        assert.deepStrictEqual(sorted(yield* store.valuesOf(mine, "deal", tags._id)), sorted([["a", "b"], ["b", "a"], ["a"]]))
        assert.deepStrictEqual(yield* store.valuesOf(mine, "contact", tags._id), [])
        assert.deepStrictEqual(yield* store.valuesOf(mine, "deal", asRecordId(freshIds(1)[0]!)), [])
      }))

    it.effect("convert rewrites the values as told; lists filter and order them under the new type", () =>
      Effect.gen(function*() {
        const store = yield* PropertyValueStore
        const mine = yield* newAccountId
        const theirs = yield* newAccountId
        const asText = customProperty(mine, "deal", "score", "string")
        const [nine, twelve, high, none] = yield* dealsWith(mine, asText, ["9", "12", "High", undefined])
        const [their] = yield* dealsWith(theirs, asText, ["12"])
        const asNumber: PropertyDefinition = { ...asText, type: "number" }
        yield* store.convert(mine, asNumber, [{ from: "9", to: 9 }, { from: "12", to: 12 }, { from: "High", to: null }])
        assert.strictEqual(yield* valueOf(mine, asNumber, nine!), 9)
        assert.strictEqual(yield* valueOf(mine, asNumber, twelve!), 12)
        assert.isUndefined(yield* valueOf(mine, asNumber, high!))
        assert.strictEqual(yield* valueOf(theirs, asText, their!), "12", "another account's value is left as it was")
        assert.deepStrictEqual(sorted(yield* store.valuesOf(mine, "deal", asText._id)), sorted([9, 12]))

        const list = (params: Partial<RecordListParams>) =>
          RecordRepository.use((repo) =>
            repo.list(listInput(mine, "deal", [asNumber], { direction: "asc", ...params }))
          )
        assert.deepStrictEqual(idsOf((yield* list({ filters: [cond("score", "number", "gt", 10)] })).rows), [twelve!])
        // Numerically (as text "12" < "9"); the cleared value is no value now: last, by id.
        assert.deepStrictEqual(idsOf((yield* list({ order: "score" })).rows), [nine!, twelve!, ...[high!, none!].sort()])
        assert.strictEqual((yield* list({ filters: [cond("score", "number", "is_empty")] })).total, 2)
      }))

    it.effect("a conversion to the same value changes nothing; a type change alone re-reads the values", () =>
      Effect.gen(function*() {
        const store = yield* PropertyValueStore
        const accountId = yield* newAccountId
        const asSelect = customProperty(accountId, "deal", "level", "single_select", ["low", "high"])
        const [low, high] = yield* dealsWith(accountId, asSelect, ["low", "high"])
        const asText: PropertyDefinition = { ...asSelect, type: "string" }
        yield* store.convert(accountId, asText, [{ from: "low", to: "low" }, { from: "high", to: "high" }])
        assert.strictEqual(yield* valueOf(accountId, asText, low!), "low")
        const found = yield* RecordRepository.use((repo) =>
          repo.list(listInput(accountId, "deal", [asText], { filters: [cond("level", "string", "contains", "IG")], order: "level" }))
        )
        assert.deepStrictEqual(idsOf(found.rows), [high!])
      }))

    it.effect("drop removes the property's values from the account's records only", () =>
      Effect.gen(function*() {
        const store = yield* PropertyValueStore
        const mine = yield* newAccountId
        const theirs = yield* newAccountId
        const tags = customProperty(mine, "deal", "tags", "multi_select", ["a", "b"])
        const [one, two] = yield* dealsWith(mine, tags, [["a"], ["a", "b"]])
        const [their] = yield* dealsWith(theirs, tags, [["b"]])
        yield* store.drop(mine, tags)
        assert.deepStrictEqual(yield* store.valuesOf(mine, "deal", tags._id), [])
        assert.isUndefined(yield* valueOf(mine, tags, one!))
        assert.isUndefined(yield* valueOf(mine, tags, two!))
        assert.deepStrictEqual(yield* valueOf(theirs, tags, their!), ["b"])
        const filtered = yield* RecordRepository.use((repo) =>
          repo.list(listInput(mine, "deal", [tags], { filters: [cond("tags", "multi_select", "is_not_empty")], order: "tags" }))
        )
        assert.strictEqual(filtered.total, 0)
      }))
  })
