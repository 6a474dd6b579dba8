import { DeliveryBacklog } from "@wasl/core/Deliveries"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The backlog on PostgreSQL, in one statement: the outbox holds only unprocessed events (it stays
 * small), and the due deliveries are read through the partial index `deliveries_due`.
 */
export const DeliveryBacklogPg: Layer.Layer<DeliveryBacklog, never, SqlClient.SqlClient> = Layer.effect(
  DeliveryBacklog,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return DeliveryBacklog.of({
      snapshot: sql<{ readonly outbox: number; readonly due: number; readonly oldest: number | null }>`
        SELECT
          (SELECT count(*) FROM outbox_events) AS outbox,
          count(*) AS due,
          extract(epoch FROM now() - min(next_attempt_at))::float8 AS oldest
        FROM deliveries
        WHERE status = 'pending' AND next_attempt_at <= now()
      `.pipe(
        Effect.map(([row]) => ({
          outboxEvents: Number(row.outbox),
          deliveriesDue: Number(row.due),
          oldestDueSeconds: Math.max(0, Number(row.oldest ?? 0))
        })),
        Effect.orDie
      )
    })
  })
)
