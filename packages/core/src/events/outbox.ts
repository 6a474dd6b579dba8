/**
 * The event outbox: every create/update/delete
 * of a record, property, property group or note appends its event here in the
 * same transaction as the change, so the change and its events commit — or
 * roll back — together. The delivery worker drains the outbox into webhook
 * deliveries.
 *
 * Draining is lease-based and at-least-once:
 *
 * 1. `claim(limit, leaseFor)` takes up to `limit` events, oldest first, that
 *    are not leased (never claimed, released, or whose lease has run out), and
 *    leases them until `now + leaseFor` (`now` from Effect's `Clock`), adding
 *    one to `attempts`. Concurrent claimers (fibers or processes) never get the
 *    same event while its lease holds (on PostgreSQL: `FOR UPDATE SKIP
 *    LOCKED`).
 * 2. Having turned the events into deliveries, the claimer calls
 *    `complete(events)`, which removes them — ideally in the same transaction
 *    as the deliveries it wrote, so fan-out is exactly once.
 * 3. A claimer that gives up calls `release(events)`: they are claimable again
 *    at once. A claimer that crashes (or outlives its lease) does nothing: the
 *    lease expires and another claimer takes the events again. Hence an event
 *    can be handed out more than once — pick a lease well above the time a
 *    batch takes, and keep the fan-out idempotent (or inside `complete`'s
 *    transaction). `complete` and `release` do not check the lease: a late
 *    claimer still completes (or releases) events another one has meanwhile
 *    claimed.
 *
 * Order: events are claimed in append order (within one `append`, array
 * order). Appends of concurrent transactions are ordered by when they were
 * appended, not by when they committed, so a claimer can see a later event
 * before an earlier one that was still uncommitted; there is no strict global
 * order, only "oldest first among those visible".
 *
 * Leases compare against each claimer's own `Clock`, so processes' clocks
 * should agree to well within a lease.
 */
import { Context, type DateTime, type Duration, type Effect } from "effect"
import type { EventName } from "../records/object-kind.ts"

/** An event to record; `append` assigns its id and time. */
export interface NewOutboxEvent {
  /** The account the event happened in. */
  readonly accountId: number
  /** One of the 72 record event names (`contact-created`, `deal-note-deleted`, ...) or a message event. */
  readonly name: EventName
  /**
   * The affected record in its REST shape: the value of the delivery body's object key.
   * Must be a JSON object; it is stored as JSON text (key order kept) and read back parsed, so
   * anything `JSON.stringify` would drop or change (undefined fields, Dates) comes back as JSON.
   */
  readonly payload: unknown
}

/** A stored event. */
export interface OutboxEvent extends NewOutboxEvent {
  /** A UUID (v4), assigned by `append`. */
  readonly id: string
  /**
   * When the event was queued, in Unix microseconds, from `Clock.currentTimeNanos`: the delivery
   * body's `time` (seconds with microseconds) is `occurredAtMicros / 1e6`. Every event of
   * one `append` shares it.
   */
  readonly occurredAtMicros: number
  /** End of the current lease; `null` when the event has never been claimed or was released. */
  readonly claimedUntil: DateTime.Utc | null
  /** How many times the event was claimed. */
  readonly attempts: number
  /**
   * The W3C `traceparent` of the span that appended the event (trace-parent.ts): captured by
   * `append` from the current span when traces are exported, else absent. Its deliveries carry it
   * on, and their attempts are traced under it.
   */
  readonly traceParent?: string | undefined
}

/** An event as `claim` hands it out: leased until `claimedUntil`. */
export interface ClaimedOutboxEvent extends OutboxEvent {
  /** End of the lease `claim` took. */
  readonly claimedUntil: DateTime.Utc
}

/** What `complete` and `release` need to identify an event (a claimed event will do). */
export interface OutboxEventKey {
  /** The event's account. */
  readonly accountId: number
  /** The event's id. */
  readonly id: string
}

/** What the {@link Outbox} port offers (implement this to write an adapter). */
export interface OutboxShape {
  /**
   * Records the events, in order, with one `occurredAtMicros` from the Clock. Joins the caller's
   * transaction (`Transactor.transaction`): the events commit with it or not at all. Outside a
   * transaction the events are committed at once. The events keep the trace context of the
   * current span (`currentTraceParent`), when there is one to keep.
   */
  readonly append: (events: ReadonlyArray<NewOutboxEvent>) => Effect.Effect<ReadonlyArray<OutboxEvent>>
  /**
   * Leases up to `limit` claimable events, oldest first, until `now + leaseFor`, and returns them in
   * order (see the module's comment for the semantics).
   */
  readonly claim: (limit: number, leaseFor: Duration.Input) => Effect.Effect<ReadonlyArray<ClaimedOutboxEvent>>
  /** Removes the events (they have been dispatched). Unknown or already completed events are ignored. */
  readonly complete: (events: ReadonlyArray<OutboxEventKey>) => Effect.Effect<void>
  /** Ends the events' leases now, so they can be claimed again at once. */
  readonly release: (events: ReadonlyArray<OutboxEventKey>) => Effect.Effect<void>
}

const OutboxBase: Context.ServiceClass<Outbox, "@wasl/core/Outbox", OutboxShape> = Context.Service<
  Outbox,
  OutboxShape
>()("@wasl/core/Outbox")

/**
 * The event outbox: written by use-cases inside their transaction, drained by the delivery worker.
 * Its operations: {@link OutboxShape}.
 */
export class Outbox extends OutboxBase {}
