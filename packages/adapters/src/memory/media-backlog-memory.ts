/** The media backlog in the memory store: same semantics as MediaBacklogPg (see the port). */
import { MediaBacklog, type Message } from "@wasl/core/Messaging"
import { Effect, Layer } from "effect"
import { MemoryStore, readStore } from "./store.ts"

const oldestFirst = (a: Message, b: Message): number =>
  a.created_at.epochMilliseconds - b.created_at.epochMilliseconds || a.account_id - b.account_id ||
  (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)

/** `MediaBacklog` over the memory store's messages. */
export const MediaBacklogMemory: Layer.Layer<MediaBacklog, never, MemoryStore> = Layer.effect(
  MediaBacklog,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return MediaBacklog.of({
      pending: (limit, skip) =>
        readStore(store, (state) => {
          const skipped = new Set(skip)
          return [...state.messaging.messages.values()]
            .filter((m) =>
              m.direction === "inbound" && !skipped.has(m._id) && m.attachments.some((a) => a.state === "pending")
            )
            .sort(oldestFirst)
            .slice(0, limit)
        })
    })
  })
)
