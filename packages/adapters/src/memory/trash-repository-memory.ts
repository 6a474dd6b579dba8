/**
 * The core's `TrashRepository` in the memory store: the twin of `TrashRepositoryPg`. A trash move
 * keeps the record's row, its links, notes and (a contact's) channel entries, then removes them
 * as the final delete does; a restore puts them back — custom values of properties deleted
 * meanwhile left out, the links whose other side is a record again — in one atomic step.
 *
 * @module
 */
import { type RecordLinkInput, type RecordRef, TrashRepository } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Option } from "effect"
import { removeChannelsOfContact } from "./contact-channel-repository-memory.ts"
import { accountKey } from "./messaging-tables.ts"
import { withMessaging } from "./messaging-constraints.ts"
import {
  addRecordLink,
  findRecordRow,
  hasRecordLink,
  insertRecordRow,
  LINK_KINDS,
  type MemoryLinkRow,
  notesOfRecord,
  putNoteRow,
  recordLinksOf,
  removeLinksOfRecord,
  removeNotesOfRecord,
  removeRecordRow
} from "./record-tables.ts"
import { type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"
import type { MemoryTrashRow } from "./trash-tables.ts"

const trashKey = (ref: RecordRef) => `${ref.accountId}:${ref.kind}:${ref.id}`

const sideOf = (ref: RecordRef, link: MemoryLinkRow) =>
  (LINK_KINDS[link.link].from === ref.kind && link.from === ref.id) || (LINK_KINDS[link.link].to === ref.kind && link.to === ref.id)

const asInput = (accountId: number, link: MemoryLinkRow): RecordLinkInput => ({ accountId, link: link.link, from: link.from, to: link.to })

const withoutTrashRow = (state: MemoryState, ref: RecordRef): MemoryState => {
  const recordTrash = new Map(state.recordTrash)
  recordTrash.delete(trashKey(ref))
  return { ...state, recordTrash }
}

/** The trash in the memory store; the twin of `TrashRepositoryPg`. */
export const TrashRepositoryMemory: Layer.Layer<TrashRepository, never, MemoryStore> = Layer.effect(
  TrashRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return TrashRepository.of({
      trash: (ref, move) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const row = findRecordRow(state.records, ref.accountId, ref.kind, ref.id)
            if (row === undefined) return [Option.none(), state] as const
            const links = recordLinksOf(state.recordLinks, ref.accountId).filter((link) => sideOf(ref, link))
            const channels = ref.kind === "contact"
              ? [...state.messaging.contactChannels.values()].filter((c) => c.account_id === ref.accountId && c.contact_id === ref.id)
              : []
            const kept: MemoryTrashRow = {
              accountId: ref.accountId,
              entry: { kind: ref.kind, id: ref.id, record: move.record, deletedAt: now, deletedBy: move.deletedBy, mergedInto: move.mergedInto },
              row,
              links,
              notes: notesOfRecord(state.notes, ref.accountId, ref.kind, ref.id),
              channels
            }
            let next: MemoryState = {
              ...state,
              records: removeRecordRow(state.records, ref.accountId, ref.kind, ref.id),
              recordLinks: removeLinksOfRecord(state.recordLinks, ref.accountId, ref.kind, ref.id),
              notes: removeNotesOfRecord(state.notes, ref.accountId, ref.kind, ref.id),
              recordTrash: new Map(state.recordTrash).set(trashKey(ref), kept)
            }
            if (ref.kind === "contact") next = removeChannelsOfContact(next, ref.accountId, ref.id)
            return [Option.some(links.map((link) => asInput(ref.accountId, link))), next] as const
          })),
      restore: (ref) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const kept = state.recordTrash.get(trashKey(ref))
            if (kept === undefined) return [Option.none(), state] as const
            const live = new Set<string>(state.properties.filter((p) => p.account_id === ref.accountId).map((p) => p._id))
            const custom = Object.fromEntries(Object.entries(kept.row.custom).filter(([id]) => live.has(id)))
            let next = withoutTrashRow(state, ref)
            next = { ...next, records: insertRecordRow(next.records, { ...kept.row, custom, updatedAt: now }) }
            for (const note of kept.notes) next = { ...next, notes: putNoteRow(next.notes, note) }
            if (kept.channels.length > 0) {
              const contactChannels = new Map(next.messaging.contactChannels)
              for (const channel of kept.channels) contactChannels.set(accountKey(channel.account_id, channel._id), channel)
              next = withMessaging(next, { ...next.messaging, contactChannels })
            }
            const restored: Array<RecordLinkInput> = []
            for (const link of kept.links) {
              const kinds = LINK_KINDS[link.link]
              const other: RecordRef = kinds.from === ref.kind && link.from === ref.id
                ? { accountId: ref.accountId, kind: kinds.to, id: link.to }
                : { accountId: ref.accountId, kind: kinds.from, id: link.from }
              const waiting = next.recordTrash.get(trashKey(other))
              if (waiting !== undefined) {
                // The other side is in the trash too: the link waits with it, to come back when it does.
                next = { ...next, recordTrash: new Map(next.recordTrash).set(trashKey(other), { ...waiting, links: [...waiting.links, link] }) }
                continue
              }
              const bothThere = findRecordRow(next.records, ref.accountId, kinds.from, link.from) !== undefined &&
                findRecordRow(next.records, ref.accountId, kinds.to, link.to) !== undefined
              if (!bothThere || hasRecordLink(next.recordLinks, ref.accountId, link)) continue
              next = { ...next, recordLinks: addRecordLink(next.recordLinks, ref.accountId, link) }
              restored.push(asInput(ref.accountId, link))
            }
            return [Option.some(restored), next] as const
          })),
      get: (ref) => readStore(store, (state) => Option.map(Option.fromNullishOr(state.recordTrash.get(trashKey(ref))), (kept) => kept.entry)),
      list: (accountId, kind, page, perPage) =>
        readStore(store, (state) => {
          const entries = [...state.recordTrash.values()]
            .filter((kept) => kept.accountId === accountId && kept.entry.kind === kind)
            .map((kept) => kept.entry)
            .sort((a, b) =>
              DateTime.toEpochMillis(b.deletedAt) - DateTime.toEpochMillis(a.deletedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
            )
          return { rows: entries.slice((page - 1) * perPage, page * perPage), total: entries.length }
        }),
      purge: (ref) =>
        updateStore(store, (state) =>
          state.recordTrash.has(trashKey(ref)) ? [true, withoutTrashRow(state, ref)] as const : [false, state] as const)
    })
  })
)
