/**
 * The part every `NotificationFeed` adapter shares: one process-wide stream of notices, split
 * per user in an account for each subscriber.
 */
import { Effect, PubSub, Stream } from "effect"
import type { NotificationFeedShape, NotificationNotice } from "./notification-feed.ts"

/**
 * A `NotificationFeed` over a process-wide `PubSub` of notices: each subscription keeps the ids
 * of its own user in its own account, and ends when the PubSub shuts down. `ready` is awaited
 * before subscribing (the adapter's LISTEN, when it has one), so a subscription never starts
 * before notices can arrive.
 */
export const feedFromNotices = (
  notices: PubSub.PubSub<NotificationNotice>,
  ready: Effect.Effect<void> = Effect.void
): NotificationFeedShape => ({
  subscribe: (accountId, userId) =>
    Effect.andThen(ready, PubSub.subscribe(notices)).pipe(
      Effect.map((subscription) =>
        Stream.fromSubscription(subscription).pipe(
          Stream.filter((notice) => notice.accountId === accountId && notice.userId === userId),
          Stream.map((notice) => notice.id)
        )
      )
    )
})
