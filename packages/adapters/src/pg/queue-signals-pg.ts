import { QueueSignals, type WorkQueue } from "@wasl/core/Events"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Queue, Schedule } from "effect"
import { DELIVERIES_CHANNEL } from "./delivery-repository-pg.ts"
import { OUTBOX_CHANNEL } from "./outbox-pg.ts"
import { WHATSAPP_INBOX_CHANNEL } from "./whatsapp-inbox-pg.ts"

const CHANNEL: { readonly [Q in WorkQueue]: string } = {
  outbox: OUTBOX_CHANNEL,
  deliveries: DELIVERIES_CHANNEL,
  whatsapp: WHATSAPP_INBOX_CHANNEL
}

/**
 * `QueueSignals` over PostgreSQL `LISTEN` (the channels the tables' insert triggers NOTIFY; on
 * the embedded database `PgClient.listen` is fed by its notification tap). Each subscription
 * holds its listener in a fiber of the caller's scope; when the listening connection fails it
 * logs, waits and listens again (the worker's polling covers the gap), so a subscription never
 * fails its caller.
 */
export const QueueSignalsPg: Layer.Layer<QueueSignals, never, PgClient.PgClient> = Layer.effect(
  QueueSignals,
  Effect.gen(function*() {
    const client = yield* PgClient.PgClient
    const subscribe = (queue: WorkQueue, onSignal: Effect.Effect<void>) =>
      Effect.scoped(Effect.gen(function*() {
        const notifications = yield* client.listen(CHANNEL[queue])
        // Listening from here on: anything committed before is found by the worker's first claim.
        yield* onSignal
        while (true) {
          yield* Queue.take(notifications)
          yield* onSignal
        }
      })).pipe(
        Effect.tapCause((cause) => Effect.logWarning(`listening on ${CHANNEL[queue]} failed; retrying`, cause)),
        Effect.retry(Schedule.spaced(Duration.seconds(1))),
        Effect.ignore,
        Effect.forkScoped,
        Effect.asVoid
      )
    return QueueSignals.of({ subscribe })
  })
)
