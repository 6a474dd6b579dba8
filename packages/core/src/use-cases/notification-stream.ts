/**
 * `GET /api/notifications/stream`: the caller's new popup and browser notifications as they are
 * stored, in the current account, for as long as the caller listens. With the id of the last one
 * received (`Last-Event-ID`), the unread ones stored after it come first, at most
 * {@link RESUME_LIMIT} of them (the newest), so a reconnecting dashboard misses nothing recent.
 */
import { Effect, Option, type Scope, Stream } from "effect"
import type { Notification } from "../account/notification.ts"
import { NotificationFeed } from "../account/notification-feed.ts"
import { NotificationRepository } from "../account/notification-repository.ts"
import type { Principal } from "../auth/principal.ts"

/** How many missed notifications a resumed stream sends first, at most. */
export const RESUME_LIMIT = 50

/**
 * The caller's popup and browser notifications, as the transactions that store them commit, in
 * the current account only; after `lastId` (the last one the caller received), the missed unread
 * ones first. Listening has started when the effect succeeds (until the scope closes), and starts
 * before the missed ones are read, so none falls between the two; one found both ways is sent once.
 */
export const notificationStream = (
  principal: Principal,
  lastId: Option.Option<number>
): Effect.Effect<Stream.Stream<Notification>, never, NotificationFeed | NotificationRepository | Scope.Scope> =>
  Effect.gen(function*() {
    const { accountId, userId } = principal
    const repo = yield* NotificationRepository
    const live = yield* NotificationFeed.use((feed) => feed.subscribe(accountId, userId))
    const missed = Option.isSome(lastId)
      ? yield* repo.listLiveAfter(accountId, userId, lastId.value, RESUME_LIMIT)
      : []
    const sent = new Set(missed.map((notification) => notification.id))
    const fresh = live.pipe(
      Stream.filter((id) => !sent.has(id)),
      Stream.mapEffect((id) => repo.findLive(accountId, userId, id)),
      Stream.filter(Option.isSome),
      Stream.map((found) => found.value)
    )
    return Stream.concat(Stream.fromIterable(missed), fresh)
  })
