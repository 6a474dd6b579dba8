/**
 * The values records hold for one custom property, in the memory store's records: the twin of
 * `PropertyValueStorePg`. Values are held by property id; a distinct value is one JSON value
 * (jsonb equality: arrays in order). There are no side rows to re-index: filters and ordering
 * read each value under its definition's type when they run (record-values.ts `indexedValue`),
 * which is what PostgreSQL's re-indexing under the new type gives.
 */
import { PropertyValueStore, type StoredValue } from "@wasl/core/Records"
import { Effect, HashMap, Layer } from "effect"
import { mapRecordRows, type MemoryRecordRow, recordRowsOf } from "./record-tables.ts"
import { MemoryStore, readStore, updateStore } from "./store.ts"

/** A value's identity as jsonb compares it. */
const jsonKey = (value: StoredValue | null | undefined): string => JSON.stringify(value ?? null)

/** The row with its value of `propertyId` replaced (undefined or null: removed). */
const withValue = (row: MemoryRecordRow, propertyId: string, value: StoredValue | null | undefined): MemoryRecordRow => {
  const { [propertyId]: _previous, ...custom } = row.custom
  return { ...row, custom: value === null || value === undefined ? custom : { ...custom, [propertyId]: value } }
}

/** The values records hold for a custom property, in the memory store; the twin of `PropertyValueStorePg`. */
export const PropertyValueStoreMemory: Layer.Layer<PropertyValueStore, never, MemoryStore> = Layer.effect(
  PropertyValueStore,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return PropertyValueStore.of({
      valuesOf: (accountId, kind, propertyId) =>
        readStore(store, (state) => {
          const distinct = new Map<string, StoredValue>()
          for (const row of HashMap.values(recordRowsOf(state.records, accountId, kind))) {
            const value = row.custom[propertyId]
            if (value !== undefined && !distinct.has(jsonKey(value))) distinct.set(jsonKey(value), value)
          }
          return [...distinct.values()]
        }),
      convert: (accountId, property, conversions) =>
        updateStore(store, (state) => {
          // One target per distinct value: the first conversion of it.
          const targets = new Map<string, StoredValue | null>()
          for (const c of conversions) {
            if (jsonKey(c.from) !== jsonKey(c.to) && !targets.has(jsonKey(c.from))) targets.set(jsonKey(c.from), c.to)
          }
          if (targets.size === 0) return [undefined, state] as const
          const records = mapRecordRows(state.records, accountId, property.kind, (row) => {
            const value = row.custom[property._id]
            return value === undefined || !targets.has(jsonKey(value))
              ? row
              : withValue(row, property._id, targets.get(jsonKey(value)))
          })
          return [undefined, { ...state, records }] as const
        }),
      drop: (accountId, property) =>
        updateStore(store, (state) => {
          const records = mapRecordRows(state.records, accountId, property.kind, (row) =>
            row.custom[property._id] === undefined ? row : withValue(row, property._id, null))
          return [undefined, { ...state, records }] as const
        })
    })
  })
)
