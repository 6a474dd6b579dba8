/**
 * The DeliveryBacklog port: how much webhook work is waiting, across every account, for the
 * operator's metrics (an outbox that keeps growing, or deliveries due long ago, mean the workers
 * do not keep up or are down). Totals only: no account's data is in it.
 */
import { Context, type Effect } from "effect"

/** The backlog at one moment. */
export interface DeliveryBacklogSnapshot {
  /** Outbox events not yet fanned out to deliveries (pending and claimed). */
  readonly outboxEvents: number
  /** Pending deliveries whose next attempt is due now or earlier. */
  readonly deliveriesDue: number
  /** Seconds since the longest-waiting due delivery came due; 0 when none is due. */
  readonly oldestDueSeconds: number
}

/** What the DeliveryBacklog port offers (implement this to write an adapter). */
export interface DeliveryBacklogShape {
  /** The backlog now. Read with cheap aggregate statements: it is asked on every metrics scrape. */
  readonly snapshot: Effect.Effect<DeliveryBacklogSnapshot>
}

const DeliveryBacklogBase: Context.ServiceClass<DeliveryBacklog, "@wasl/core/DeliveryBacklog", DeliveryBacklogShape> =
  Context.Service<DeliveryBacklog, DeliveryBacklogShape>()("@wasl/core/DeliveryBacklog")

/** How much webhook work is waiting (see `DeliveryBacklogShape`). */
export class DeliveryBacklog extends DeliveryBacklogBase {}
