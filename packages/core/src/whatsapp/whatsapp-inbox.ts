/**
 * The WhatsApp inbox: every authentic callback of Meta's, stored as its raw body the moment it
 * arrives, until the worker has processed it. Meta wants its 200 within seconds and retries
 * anything else, so the receiver does one insert and answers; the work (contacts, messages,
 * statuses, media) happens in the worker, which drains this table.
 *
 * Draining is lease-based and at-least-once, like the outbox:
 *
 * 1. `claim(limit, leaseFor)` takes up to `limit` bodies, oldest first, that are claimable (never
 *    claimed, or their lease or retry time has come), leases them until `now + leaseFor` and adds
 *    one to their `attempts`. Concurrent claimers never get the same body while its lease holds
 *    (on PostgreSQL: `FOR UPDATE SKIP LOCKED`).
 * 2. Processed, the claimer calls `complete(ids)`, which deletes them: the table holds only what
 *    is still to do, so there is nothing to prune.
 * 3. A body whose processing failed is given back with `retry(id, at)`: claimable again from `at`
 *    (a backoff). A claimer that crashes does nothing: its lease runs out and another takes it.
 *
 * Processing must therefore be idempotent (it is, on Meta's message ids): a body can be handed out
 * more than once. Leases compare against each claimer's own `Clock`.
 */
import { Context, type DateTime, type Duration, type Effect } from "effect"

/** A stored callback as `claim` hands it out. */
export interface ClaimedWhatsAppWebhook {
  /** The row's id (digits), for `complete` and `retry`. */
  readonly id: string
  /** The raw body, exactly as Meta sent it (UTF-8 JSON of Meta's shape). */
  readonly body: string
  /** When Wasl received it. */
  readonly receivedAt: DateTime.Utc
  /** How many times it was claimed, this claim included (1 on the first). */
  readonly attempts: number
}

/** What the {@link WhatsAppInbox} port offers (implement this to write an adapter). */
export interface WhatsAppInboxShape {
  /**
   * Stores one raw body received at `receivedAt`, committed when this returns (one insert, never
   * part of a caller's transaction), and wakes the claimers (`QueueSignals`' `whatsapp` queue).
   */
  readonly insert: (body: string, receivedAt: DateTime.Utc) => Effect.Effect<void>
  /** Leases up to `limit` claimable bodies, oldest first, until `now + leaseFor` (see the module's comment). */
  readonly claim: (limit: number, leaseFor: Duration.Input) => Effect.Effect<ReadonlyArray<ClaimedWhatsAppWebhook>>
  /** Deletes the bodies (processed, or dropped). Unknown ids are ignored. */
  readonly complete: (ids: ReadonlyArray<string>) => Effect.Effect<void>
  /** Ends a body's lease, making it claimable again from `at` (a retry after a failure). Unknown ids are ignored. */
  readonly retry: (id: string, at: DateTime.Utc) => Effect.Effect<void>
}

const WhatsAppInboxBase: Context.ServiceClass<WhatsAppInbox, "@wasl/core/WhatsAppInbox", WhatsAppInboxShape> =
  Context.Service<WhatsAppInbox, WhatsAppInboxShape>()("@wasl/core/WhatsAppInbox")

/**
 * The stored raw bodies of Meta's callbacks, written by the receiver, drained by the worker. Its
 * operations: {@link WhatsAppInboxShape}.
 */
export class WhatsAppInbox extends WhatsAppInboxBase {}
