import { MessageRepository } from "@wasl/core"
import { Effect, Layer, Option } from "effect"
import { accountKey } from "./messaging-tables.ts"
import { requireBroadcast, requireNewRecordKey, withMessaging } from "./messaging-constraints.ts"
import { mapSet, MemoryStore, readStore, updateStore } from "./store.ts"

/** Sent messages in the memory store: same semantics as MessageRepositoryPg (keyed by account and id). */
export const MessageRepositoryMemory: Layer.Layer<MessageRepository, never, MemoryStore> = Layer.effect(
  MessageRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return MessageRepository.of({
      insert: (message) =>
        updateStore(store, (state) => {
          const { messages } = state.messaging
          requireNewRecordKey(messages, message.account_id, message._id, "messages")
          requireBroadcast(state, message.account_id, message.broadcast_id, "messages")
          const key = accountKey(message.account_id, message._id)
          return [undefined, withMessaging(state, { ...state.messaging, messages: mapSet(messages, key, message) })] as const
        }),
      findById: (accountId, id) =>
        readStore(store, (state) => Option.fromNullishOr(state.messaging.messages.get(accountKey(accountId, id))))
    })
  })
)
