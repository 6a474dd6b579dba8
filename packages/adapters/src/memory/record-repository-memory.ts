/**
 * The core's `RecordRepository` in the memory store: the twin of `RecordRepositoryPg`, to the
 * letter (the contract suite and a differential property test hold them equal). Each method is
 * one atomic store operation, every one per account: another account's record is not found and
 * cannot be linked. The tables are record-tables.ts, values record-values.ts, derived data
 * record-derived.ts and lists record-list.ts.
 */
import { type PropertyDefinition, type RecordInsertInput, RecordRepository, type RecordWithDerived } from "@wasl/core/Records"
import { DateTime, Effect, HashMap, Layer, Option } from "effect"
import { channelsOfContact, removeChannelsOfContact } from "./contact-channel-repository-memory.ts"
import { requireAccount } from "./property-repository-memory.ts"
import { type DerivationContext, indexLinks, recordWithDerived } from "./record-derived.ts"
import { listPage, scanBatch } from "./record-list.ts"
import {
  addRecordLink,
  findRecordRow,
  hasRecordLink,
  insertRecordRow,
  LINK_KINDS,
  recordLinksOf,
  type MemoryRecordRow,
  putRecordRow,
  removeRecordLink,
  removeLinksOfRecord,
  removeNotesOfRecord,
  removeRecordRow,
  recordRowsOf
} from "./record-tables.ts"
import { applyWrite, customOfKind } from "./record-values.ts"
import { type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

const RECORD_ID = /^[0-9a-f]{24}$/

const contextOf = (state: MemoryState, accountId: number): DerivationContext => ({
  links: indexLinks(recordLinksOf(state.recordLinks, accountId)),
  contact: (id) => findRecordRow(state.records, accountId, "contact", id),
  channels: (contactId) => channelsOfContact(state, accountId, contactId)
})

/** A row as read in `state`, showing the custom values of `definitions`. */
const readRow = (state: MemoryState, row: MemoryRecordRow, definitions: ReadonlyArray<PropertyDefinition>): RecordWithDerived =>
  recordWithDerived(row, customOfKind(row.kind, definitions), contextOf(state, row.accountId))

/** Stores a new record in `state`: the record as read, and the state after. */
const insertRow = (state: MemoryState, input: RecordInsertInput, now: DateTime.Utc): readonly [RecordWithDerived, MemoryState] => {
  requireAccount(state, input.accountId, "records")
  if (!RECORD_ID.test(input.id)) throw new Error(`records: id "${input.id}" is not 24 hex`)
  const values = applyWrite({ kind: input.kind, builtin: {}, custom: {} }, customOfKind(input.kind, input.custom), input.values)
  const row: MemoryRecordRow = { accountId: input.accountId, kind: input.kind, id: input.id, ...values, createdAt: now, updatedAt: now }
  const next: MemoryState = { ...state, records: insertRecordRow(state.records, row) }
  return [readRow(next, row, input.custom), next]
}

/** Records of the six kinds, their links and derived data in the memory store; the twin of `RecordRepositoryPg`. */
export const RecordRepositoryMemory: Layer.Layer<RecordRepository, never, MemoryStore> = Layer.effect(
  RecordRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore

    return RecordRepository.of({
      insert: (input) =>
        Effect.flatMap(DateTime.now, (now) => updateStore(store, (state) => insertRow(state, input, now))),
      insertAll: (inputs) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const written: Array<RecordWithDerived> = []
            for (const input of inputs) {
              const [record, next] = insertRow(state, input, now)
              written.push(record)
              state = next
            }
            return [written, state] as const
          })),
      update: (input) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const current = findRecordRow(state.records, input.accountId, input.kind, input.id)
            // The patch is checked before the record is looked for, as PostgreSQL encodes it first.
            const values = applyWrite(current ?? { kind: input.kind, builtin: {}, custom: {} }, customOfKind(input.kind, input.custom), input.patch)
            if (current === undefined) return [Option.none(), state] as const
            const row: MemoryRecordRow = { ...current, ...values, updatedAt: now }
            const next: MemoryState = { ...state, records: putRecordRow(state.records, row) }
            return [Option.some(readRow(next, row, input.custom)), next] as const
          })),
      delete: (ref) =>
        updateStore(store, (state) => {
          if (findRecordRow(state.records, ref.accountId, ref.kind, ref.id) === undefined) return [false, state] as const
          const next: MemoryState = {
            ...state,
            records: removeRecordRow(state.records, ref.accountId, ref.kind, ref.id),
            recordLinks: removeLinksOfRecord(state.recordLinks, ref.accountId, ref.kind, ref.id),
            notes: removeNotesOfRecord(state.notes, ref.accountId, ref.kind, ref.id)
          }
          return [true, ref.kind === "contact" ? removeChannelsOfContact(next, ref.accountId, ref.id) : next] as const
        }),
      // The memory store's transactions run one at a time: nothing to hold.
      valuesForUpdate: (input) =>
        readStore(store, (state) =>
          Option.map(
            Option.fromNullishOr(findRecordRow(state.records, input.accountId, input.kind, input.id)),
            (row) => readRow(state, row, input.custom).record.values
          )),
      get: (input) =>
        readStore(store, (state) =>
          Option.map(
            Option.fromNullishOr(findRecordRow(state.records, input.accountId, input.kind, input.id)),
            (row) => readRow(state, row, input.custom)
          )),
      list: (input) =>
        readStore(store, (state) =>
          listPage(
            input,
            HashMap.values(recordRowsOf(state.records, input.accountId, input.kind)),
            contextOf(state, input.accountId)
          )),
      scanBatch: (input, after, limit) =>
        readStore(store, (state) =>
          scanBatch(
            input,
            after,
            limit,
            HashMap.values(recordRowsOf(state.records, input.accountId, input.kind)),
            contextOf(state, input.accountId)
          )),
      existing: (accountId, kind, ids) =>
        readStore(store, (state) => [...new Set(ids)].filter((id) => findRecordRow(state.records, accountId, kind, id) !== undefined)),
      link: (input) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const kinds = LINK_KINDS[input.link]
            const ok = findRecordRow(state.records, input.accountId, kinds.from, input.from) !== undefined &&
              findRecordRow(state.records, input.accountId, kinds.to, input.to) !== undefined &&
              !hasRecordLink(state.recordLinks, input.accountId, input)
            if (!ok) return [false, state] as const
            const row = { link: input.link, from: input.from, to: input.to, createdAt: now }
            return [true, { ...state, recordLinks: addRecordLink(state.recordLinks, input.accountId, row) }] as const
          })),
      unlink: (input) =>
        updateStore(store, (state) =>
          hasRecordLink(state.recordLinks, input.accountId, input)
            ? [true, { ...state, recordLinks: removeRecordLink(state.recordLinks, input.accountId, input) }] as const
            : [false, state] as const)
    })
  })
)
