import { feedFromNotices, NotificationFeed } from "@wasl/core/Notifications"
import { Effect, Layer } from "effect"
import { MemoryStore } from "./store.ts"

/**
 * `NotificationFeed` over the memory store's notices, which `NotificationRepositoryMemory`
 * publishes once an insert commits: one process, so every subscriber sees every notice.
 */
export const NotificationFeedMemory: Layer.Layer<NotificationFeed, never, MemoryStore> = Layer.effect(
  NotificationFeed,
  Effect.map(MemoryStore, (store) => NotificationFeed.of(feedFromNotices(store.notices)))
)
