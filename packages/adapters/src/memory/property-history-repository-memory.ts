import { type HistoryEntry, PropertyHistoryRepository } from "@wasl/core/Records"
import { DateTime, Effect, Layer } from "effect"
import { requireAccount } from "./property-repository-memory.ts"
import { MemoryStore, readStore, updateStore } from "./store.ts"

const ofRecord = (accountId: number, kind: string, recordId: string) => (entry: HistoryEntry) =>
  entry.accountId === accountId && entry.kind === kind && entry.recordId === recordId

/** Records' property history in the memory store; the twin of `PropertyHistoryRepositoryPg`. */
export const PropertyHistoryRepositoryMemory: Layer.Layer<PropertyHistoryRepository, never, MemoryStore> = Layer.effect(
  PropertyHistoryRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return PropertyHistoryRepository.of({
      append: (entries) =>
        updateStore(store, (state) => {
          for (const entry of entries) requireAccount(state, entry.accountId, "property_history")
          return [undefined, { ...state, propertyHistory: [...state.propertyHistory, ...entries] }] as const
        }),
      page: (input) =>
        readStore(store, (state) => {
          const matching = state.propertyHistory
            .map((entry, seq) => ({ entry, seq }))
            .filter(({ entry }) =>
              ofRecord(input.accountId, input.kind, input.recordId)(entry) &&
              (input.property === undefined || entry.property === input.property)
            )
            // Newest first: by the time of the change, then the later appended first.
            .sort((a, b) => DateTime.toEpochMillis(b.entry.changedAt) - DateTime.toEpochMillis(a.entry.changedAt) || b.seq - a.seq)
          const start = (input.page - 1) * input.perPage
          return { rows: matching.slice(start, start + input.perPage).map(({ entry }) => entry), total: matching.length }
        }),
      purge: (accountId, kind, recordId) =>
        updateStore(store, (state) => {
          const keep = state.propertyHistory.filter((entry) => !ofRecord(accountId, kind, recordId)(entry))
          return [state.propertyHistory.length - keep.length, { ...state, propertyHistory: keep }] as const
        })
    })
  })
)
