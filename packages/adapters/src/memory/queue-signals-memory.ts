import { QueueSignals, type WorkQueue } from "@wasl/core/Events"
import { Cause, Effect, Latch, Layer } from "effect"
import { MemoryStore } from "./store.ts"

/**
 * `QueueSignals` over the memory store's signal hub, which `OutboxMemory` (events appended, once
 * their transaction commits; events released) and `DeliveryRepositoryMemory` (deliveries queued,
 * once committed) wake. Like `QueueSignalsPg`, a subscription runs `onSignal` once as soon as it
 * listens, then once per signal; signals that arrive while `onSignal` runs are folded into one
 * more run (a signal only says "claim now"). A defect in `onSignal` is logged, and the
 * subscription goes on.
 */
export const QueueSignalsMemory: Layer.Layer<QueueSignals, never, MemoryStore> = Layer.effect(
  QueueSignals,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const subscribe = (queue: WorkQueue, onSignal: Effect.Effect<void>) =>
      Effect.gen(function*() {
        // Open: the first run tells the subscriber it is listening.
        const pending = yield* Latch.make(true)
        const stop = store.signals.listen(queue, () => Latch.openUnsafe(pending))
        yield* Effect.addFinalizer(() => Effect.sync(stop))
        const run = onSignal.pipe(
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : Effect.logWarning(`a ${queue} signal failed`, cause)
          )
        )
        yield* Effect.forkScoped(Effect.forever(Effect.andThen(pending.await, Effect.andThen(pending.close, run))))
      })
    return QueueSignals.of({ subscribe })
  })
)
