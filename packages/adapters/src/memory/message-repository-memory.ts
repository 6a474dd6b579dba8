import { type Message, MessageRepository } from "@wasl/core/Messaging"
import { Effect, Layer, Option } from "effect"
import { accountKey } from "./messaging-tables.ts"
import { requireBroadcast, requireNewRecordKey, withMessaging } from "./messaging-constraints.ts"
import { mapSet, MemoryStore, readStore, updateStore } from "./store.ts"

/** Oldest first; of messages of the same time, the one stored first (the store keeps that order, the sort is stable). */
const byCreation = (a: Message, b: Message): number => a.created_at.epochMilliseconds - b.created_at.epochMilliseconds

/** Messages in the memory store: same semantics as MessageRepositoryPg (keyed by account and id). */
export const MessageRepositoryMemory: Layer.Layer<MessageRepository, never, MemoryStore> = Layer.effect(
  MessageRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const insert = (message: Message) =>
        updateStore(store, (state) => {
          const { messages } = state.messaging
          requireNewRecordKey(messages, message.account_id, message._id, "messages")
          if (message.broadcast_id !== null) requireBroadcast(state, message.account_id, message.broadcast_id, "messages")
          if (message.direction === "inbound") {
            for (const m of messages.values()) {
              if (
                m.account_id === message.account_id && m.direction === "inbound" &&
                m.provider_message_id === message.provider_message_id
              ) {
                throw new Error(`duplicate key value violates unique constraint "messages_inbound_provider_idx"`)
              }
            }
          }
          const key = accountKey(message.account_id, message._id)
          return [undefined, withMessaging(state, { ...state.messaging, messages: mapSet(messages, key, message) })] as const
        })
    return MessageRepository.of({
      insert,
      insertMany: (messages) => Effect.forEach(messages, insert, { discard: true }),
      findById: (accountId, id) =>
        readStore(store, (state) => Option.fromNullishOr(state.messaging.messages.get(accountKey(accountId, id)))),
      findByProviderId: (accountId, providerMessageId) =>
        readStore(store, (state) => {
          const found = [...state.messaging.messages.values()]
            .filter((m) => m.account_id === accountId && m.provider_message_id === providerMessageId)
            .sort(byCreation)
          return Option.fromNullishOr(found[0])
        }),
      update: (message) =>
        updateStore(store, (state) => {
          const key = accountKey(message.account_id, message._id)
          const { messages } = state.messaging
          if (!messages.has(key)) return [undefined, state] as const
          return [undefined, withMessaging(state, { ...state.messaging, messages: mapSet(messages, key, message) })] as const
        })
    })
  })
)
