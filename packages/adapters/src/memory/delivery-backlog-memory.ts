import { DeliveryBacklog } from "@wasl/core/Deliveries"
import { Clock, DateTime, Effect, Layer } from "effect"
import { MemoryStore, readStore } from "./store.ts"

/** The backlog over the memory store, with DeliveryBacklogPg's meaning. */
export const DeliveryBacklogMemory: Layer.Layer<DeliveryBacklog, never, MemoryStore> = Layer.effect(
  DeliveryBacklog,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return DeliveryBacklog.of({
      snapshot: Effect.flatMap(Clock.currentTimeMillis, (now) =>
        readStore(store, (state) => {
          let due = 0
          let oldest = now
          for (const row of state.deliveries.values()) {
            if (row.status !== "pending" || row.nextAttemptAt === null) continue
            const at = DateTime.toEpochMillis(row.nextAttemptAt)
            if (at > now) continue
            due++
            oldest = Math.min(oldest, at)
          }
          return { outboxEvents: state.outbox.length, deliveriesDue: due, oldestDueSeconds: (now - oldest) / 1000 }
        }))
    })
  })
)
