import { ContactChannelRepository } from "@wasl/core/Messaging"
import { type ContactChannel } from "@wasl/core/Records"
import { Effect, Layer } from "effect"
import { withMessaging } from "./messaging-constraints.ts"
import { accountKey, type ContactChannelRow } from "./messaging-tables.ts"
import { findRecordRow } from "./record-tables.ts"
import { mapSet, type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

const entryOf = (row: ContactChannelRow): ContactChannel => ({
  _id: row._id,
  platform_third_party_id: row.platform_third_party_id,
  contact_third_party_id: row.contact_third_party_id,
  created_at: row.created_at
})

/** The contact's channel entries in `state`, oldest first (the table keeps insertion order). */
export const channelsOfContact = (state: MemoryState, accountId: number, contactId: string): ReadonlyArray<ContactChannel> =>
  [...state.messaging.contactChannels.values()]
    .filter((row) => row.account_id === accountId && row.contact_id === contactId)
    .map(entryOf)

/** `state` without the channel entries of that contact (they go with it, as `ON DELETE CASCADE`). */
export const removeChannelsOfContact = (state: MemoryState, accountId: number, contactId: string): MemoryState => {
  const kept = [...state.messaging.contactChannels].filter(([, row]) => !(row.account_id === accountId && row.contact_id === contactId))
  return kept.length === state.messaging.contactChannels.size
    ? state
    : withMessaging(state, { ...state.messaging, contactChannels: new Map(kept) })
}

/** The contacts' channel entries in the memory store: the twin of ContactChannelRepositoryPg. */
export const ContactChannelRepositoryMemory: Layer.Layer<ContactChannelRepository, never, MemoryStore> = Layer.effect(
  ContactChannelRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return ContactChannelRepository.of({
      ensure: (key, id, now) =>
        updateStore(store, (state) => {
          const existing = [...state.messaging.contactChannels.values()].find((row) =>
            row.account_id === key.accountId && row.contact_id === key.contactId &&
            row.platform_third_party_id === key.platformThirdPartyId &&
            row.contact_third_party_id === key.contactThirdPartyId
          )
          if (existing !== undefined) return [entryOf(existing), state] as const
          if (findRecordRow(state.records, key.accountId, "contact", key.contactId) === undefined) {
            throw new Error(`insert on table "contact_channels" violates foreign key constraint: contact ${key.contactId}`)
          }
          if (!/^[0-9a-f]{24}$/.test(id)) throw new Error(`contact_channels: id "${id}" is not 24 hex`)
          const row: ContactChannelRow = {
            _id: id,
            account_id: key.accountId,
            contact_id: key.contactId,
            platform_third_party_id: key.platformThirdPartyId,
            contact_third_party_id: key.contactThirdPartyId,
            created_at: now
          }
          const contactChannels = mapSet(state.messaging.contactChannels, accountKey(key.accountId, id), row)
          return [entryOf(row), withMessaging(state, { ...state.messaging, contactChannels })] as const
        }),
      listOfContact: (accountId, contactId) => readStore(store, (state) => channelsOfContact(state, accountId, contactId))
    })
  })
)
