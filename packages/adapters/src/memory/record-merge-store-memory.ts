/**
 * The core's `RecordMergeStore` in the memory store: the twin of `RecordMergeStorePg`. Holding is
 * nothing to do (the memory transactor runs one transaction at a time); the move is one atomic step.
 *
 * @module
 */
import { type RecordLinkInput, RecordMergeStore } from "@wasl/core/Records"
import { Effect, HashMap, Layer } from "effect"
import { withMessaging } from "./messaging-constraints.ts"
import { findRecordRow, LINK_KINDS, type MemoryLinkRow, notesOfAccount, recordLinksOf } from "./record-tables.ts"
import { type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

const sameLink = (a: MemoryLinkRow, b: MemoryLinkRow) => a.link === b.link && a.from === b.from && a.to === b.to

/** The records' rows for one account, the links and notes moved from `from` onto `into`. */
const moveLinksAndNotes = (state: MemoryState, accountId: number, kind: string, into: string, from: string) => {
  const gained: Array<RecordLinkInput> = []
  const kept: Array<MemoryLinkRow> = []
  const links = recordLinksOf(state.recordLinks, accountId)
  for (const row of links) {
    const kinds = LINK_KINDS[row.link]
    const moved = kinds.from === kind && row.from === from
      ? { ...row, from: into }
      : kinds.to === kind && row.to === from
      ? { ...row, to: into }
      : undefined
    if (moved === undefined) {
      kept.push(row)
    } else if (!links.some((other) => sameLink(other, moved)) && !kept.some((other) => sameLink(other, moved))) {
      kept.push(moved)
      gained.push({ accountId, link: moved.link, from: moved.from, to: moved.to })
    }
  }
  const notes = HashMap.map(notesOfAccount(state.notes, accountId), (note) =>
    note.object_type === kind && note.record_id === from ? { ...note, record_id: into } : note)
  return [gained, {
    ...state,
    recordLinks: HashMap.set(state.recordLinks, accountId, kept),
    notes: HashMap.set(state.notes, accountId, notes)
  }] as const
}

/** A contact's channel entries and messages moved from `from` onto `into` (a shared channel: `into`'s takes the messages). */
const moveConversation = (state: MemoryState, accountId: number, into: string, from: string): MemoryState => {
  const channels = new Map(state.messaging.contactChannels)
  const renamed = new Map<string, string>()
  for (const [key, row] of state.messaging.contactChannels) {
    if (row.account_id !== accountId || row.contact_id !== from) continue
    const twin = [...channels.values()].find((other) =>
      other.account_id === accountId && other.contact_id === into &&
      other.platform_third_party_id === row.platform_third_party_id && other.contact_third_party_id === row.contact_third_party_id
    )
    if (twin === undefined) {
      channels.set(key, { ...row, contact_id: into })
    } else {
      renamed.set(row._id, twin._id)
      channels.delete(key)
    }
  }
  const messages = new Map(state.messaging.messages)
  for (const [key, message] of state.messaging.messages) {
    if (message.account_id !== accountId || message.contact_id !== from) continue
    messages.set(key, {
      ...message,
      contact_id: into,
      contact_channel_id: renamed.get(message.contact_channel_id) ?? message.contact_channel_id
    })
  }
  return withMessaging(state, { ...state.messaging, contactChannels: channels, messages })
}

/** What a merge moves, in the memory store; the twin of `RecordMergeStorePg`. */
export const RecordMergeStoreMemory: Layer.Layer<RecordMergeStore, never, MemoryStore> = Layer.effect(
  RecordMergeStore,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return RecordMergeStore.of({
      hold: (pair) =>
        readStore(store, (state) =>
          [pair.into, pair.from].filter((id) => findRecordRow(state.records, pair.accountId, pair.kind, id) !== undefined).sort()),
      moveOver: (pair) =>
        updateStore(store, (state) => {
          const [gained, moved] = moveLinksAndNotes(state, pair.accountId, pair.kind, pair.into, pair.from)
          return [gained, pair.kind === "contact" ? moveConversation(moved, pair.accountId, pair.into, pair.from) : moved] as const
        })
    })
  })
)
