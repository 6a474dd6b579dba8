import { feedFromNotices, NotificationFeed, type NotificationNotice } from "@wasl/core/Notifications"
import { PgClient } from "@effect/sql-pg"
import { Deferred, Duration, Effect, Layer, PubSub, Queue, Schedule } from "effect"
import { NOTIFICATIONS_CHANNEL } from "./notification-repository-pg.ts"

const NOTICE = /^([0-9]{1,15}):([0-9]{1,15}):([0-9]{1,15})$/

/** A NOTIFY payload `<account>:<user>:<id>` as a notice; anything else is not one of ours. */
const parseNotice = (payload: string): NotificationNotice | undefined => {
  const match = NOTICE.exec(payload)
  return match === null ? undefined : { accountId: Number(match[1]), userId: Number(match[2]), id: Number(match[3]) }
}

/**
 * `NotificationFeed` over PostgreSQL `LISTEN wasl_notifications` (what
 * `NotificationRepositoryPg.insert` NOTIFYs at commit, from any process on the database). One
 * listener per process, started by the first subscriber, feeds every subscriber through a PubSub,
 * so streams cost no connection each. When the listening connection fails it logs, waits and listens again; notices sent in
 * between are lost, which a reconnecting client's `Last-Event-ID` recovers. Closing the layer
 * ends every subscriber's stream.
 */
export const NotificationFeedPg: Layer.Layer<NotificationFeed, never, PgClient.PgClient> = Layer.effect(
  NotificationFeed,
  Effect.gen(function*() {
    const client = yield* PgClient.PgClient
    const notices = yield* Effect.acquireRelease(PubSub.unbounded<NotificationNotice>(), PubSub.shutdown)
    const listening = yield* Deferred.make<void>()
    const scope = yield* Effect.scope
    const listen = Effect.scoped(Effect.gen(function*() {
      const payloads = yield* client.listen(NOTIFICATIONS_CHANNEL)
      yield* Deferred.succeed(listening, undefined)
      while (true) {
        const notice = parseNotice((yield* Queue.take(payloads)).payload)
        if (notice !== undefined) yield* PubSub.publish(notices, notice)
      }
    })).pipe(
      Effect.tapCause((cause) => Effect.logWarning(`listening on ${NOTIFICATIONS_CHANNEL} failed; retrying`, cause)),
      Effect.retry(Schedule.spaced(Duration.seconds(1))),
      Effect.ignore
    )
    // Started by the first subscriber, in the layer's scope: a process that serves no stream
    // (a worker) holds no listening connection.
    const startListening = yield* Effect.cached(Effect.forkIn(listen, scope))
    return NotificationFeed.of(feedFromNotices(notices, Effect.andThen(startListening, Deferred.await(listening))))
  })
)
