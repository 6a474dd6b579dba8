/** The values records hold for a custom property, as a type change is checked against them. */
import { assert, describe, layer } from "@effect/vitest"
import { PropertyValueReader, RecordId } from "@wasl/core"
import { Effect, Layer } from "effect"
import { TestDatabase } from "../../src/db/test-database.ts"
import { PropertyValueReaderPg } from "../../src/pg/property-value-reader-pg.ts"
import { RecordStorePg } from "../../src/pg/records/record-store-pg.ts"
import type { CustomProperty } from "../../src/pg/records/storage.ts"
import { newAccount, newId, storeOn } from "./fixtures.ts"

describe.each(TestDatabase.variants)("PropertyValueReaderPg on $name", ({ enabled, layer: database }) => {
  describe.runIf(enabled)("", () => {
    const live = PropertyValueReaderPg.pipe(Layer.provideMerge(storeOn(database)))
    layer(live, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("reads the distinct values of one property, in one account and kind only", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const reader = yield* PropertyValueReader
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
    })
  })
})
