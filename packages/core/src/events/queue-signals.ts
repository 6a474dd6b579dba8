/**
 * Wake-ups for the worker's queues (queues are tables claimed with `FOR UPDATE SKIP LOCKED`,
 * woken with `LISTEN/NOTIFY`). A signal means "something may be
 * claimable now" — never what: the worker claims to find out. Signals are a latency
 * optimisation only; the worker also polls, so a lost signal (a dropped listening connection, a
 * database without LISTEN) delays work but never loses it.
 */
import { Context, type Effect, type Scope } from "effect"

/**
 * `outbox`: events were appended or released. `deliveries`: deliveries were queued. `whatsapp`:
 * a WhatsApp callback was stored (the inbox).
 */
export type WorkQueue = "outbox" | "deliveries" | "whatsapp"

/** What the {@link QueueSignals} port offers (implement this to write an adapter). */
export interface QueueSignalsShape {
  /**
   * Runs `onSignal` once as soon as the subscription listens (work queued before it is for that
   * first run's claim to find), then on every signal of `queue` — signals that come while it runs
   * may fold into one more run — until the scope closes. A transaction's signals go out when it
   * commits, never when it rolls back. Never fails the caller.
   */
  readonly subscribe: (queue: WorkQueue, onSignal: Effect.Effect<void>) => Effect.Effect<void, never, Scope.Scope>
}

const QueueSignalsBase: Context.ServiceClass<QueueSignals, "@wasl/core/QueueSignals", QueueSignalsShape> =
  Context.Service<QueueSignals, QueueSignalsShape>()("@wasl/core/QueueSignals")

/**
 * Wake-ups for the worker's queues: "something may be claimable now in this queue". A latency
 * optimisation only; the worker also polls. Its operations: {@link QueueSignalsShape}.
 */
export class QueueSignals extends QueueSignalsBase {}
