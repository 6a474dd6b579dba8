/** The values records hold for a custom property, as a type change is checked against them. */
import { assert, describe, layer } from "@effect/vitest"
import { type PropertyDefinition, type PropertyType, PropertyValueStore, RecordId } from "@wasl/core"
import { DateTime, Effect, Layer, Option } from "effect"
import { TestDatabase } from "../../src/db/test-database.ts"
import { PropertyValueStorePg } from "../../src/pg/property-value-store-pg.ts"
import { RecordStorePg } from "../../src/pg/records/record-store-pg.ts"
import type { CustomProperty } from "../../src/pg/records/storage.ts"
import { newAccount, newId, storeOn } from "./fixtures.ts"

/** A custom deal property definition of the account with this id, name and type. */
const definitionOf = (id: string, internalName: string, type: PropertyType): PropertyDefinition => ({
  _id: RecordId.make(id),
  type,
  name: { en: internalName },
  desc: null,
  internal_name: internalName,
  group_id: RecordId.make(newId()),
  account_id: 0,
  made_by: null,
  created_at: DateTime.makeUnsafe(0),
  updated_at: DateTime.makeUnsafe(0),
  kind: "deal",
  builtin: false,
  readOnly: false,
  required: false
})

describe.each(TestDatabase.variants)("PropertyValueStorePg on $name", ({ enabled, layer: database }) => {
  describe.runIf(enabled)("", () => {
    const live = PropertyValueStorePg.pipe(Layer.provideMerge(storeOn(database)))
    layer(live, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("reads the distinct values of one property, in one account and kind only", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const reader = yield* PropertyValueStore
          const [mine, theirs] = [yield* newAccount, yield* newAccount]
          const score: CustomProperty = { id: newId(), internal_name: "score", type: "string" }
          const other: CustomProperty = { id: newId(), internal_name: "other", type: "string" }
          const custom = [score, other]
          const insert = (accountId: number, values: Record<string, string>) =>
            store.insert({ accountId, kind: "deal", id: newId(), custom, values: { deal_name: "d", ...values } })
          yield* insert(mine, { score: "12" })
          yield* insert(mine, { score: "12" })
          yield* insert(mine, { score: "High" })
          yield* insert(mine, { other: "x" })
          yield* insert(theirs, { score: "leak" })
          const values = yield* reader.valuesOf(mine, "deal", RecordId.make(score.id))
          assert.deepStrictEqual([...values].sort(), ["12", "High"])
          assert.deepStrictEqual(yield* reader.valuesOf(mine, "contact", RecordId.make(score.id)), [])
        }))

      it.effect("converts values after a type change, re-indexed for filters; drops a deleted property's values", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const values = yield* PropertyValueStore
          const [mine, theirs] = [yield* newAccount, yield* newAccount]
          const asText: CustomProperty = { id: newId(), internal_name: "score", type: "string" }
          const insert = (accountId: number, score: string) =>
            store.insert({ accountId, kind: "deal", id: newId(), custom: [asText], values: { deal_name: "d", score } })
          const low = yield* insert(mine, "9")
          const high = yield* insert(mine, "12")
          const other = yield* insert(theirs, "12")
          const asNumber = {
            ...definitionOf(asText.id, "score", "number"),
            account_id: mine
          }
          yield* values.convert(mine, asNumber, [{ from: "9", to: 9 }, { from: "12", to: 12 }])
          const numeric: CustomProperty = { ...asText, type: "number" }
          const listed = yield* store.list({
            accountId: mine,
            kind: "deal",
            custom: [numeric],
            filters: [{ _tag: "Condition", property: "score", type: "number", operator: "gt", value: 10 }]
          })
          assert.deepStrictEqual(listed.rows.map((r) => r._id), [high._id])
          assert.strictEqual(listed.rows[0]!.values.score, 12)
          const kept = yield* store.get({ accountId: mine, kind: "deal", id: low._id, custom: [numeric] })
          assert.strictEqual(Option.getOrThrow(kept).values.score, 9)
          // Another account's record with the same property id is left as it was.
          const theirsNow = yield* store.get({ accountId: theirs, kind: "deal", id: other._id, custom: [asText] })
          assert.strictEqual(Option.getOrThrow(theirsNow).values.score, "12")

          yield* values.drop(mine, asNumber)
          assert.deepStrictEqual(yield* values.valuesOf(mine, "deal", RecordId.make(asText.id)), [])
          const after = yield* store.list({
            accountId: mine,
            kind: "deal",
            custom: [numeric],
            filters: [{ _tag: "Condition", property: "score", type: "number", operator: "is_not_empty" }]
          })
          assert.strictEqual(after.total, 0)
        }))
    })
  })
})
