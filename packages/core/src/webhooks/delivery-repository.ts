/**
 * The delivery queue: deliveries, their attempts, and the webhook columns the worker owns
 * (`is_active`, `consecutive_failures`, `last_failure_at`).
 *
 * Queue semantics, like the outbox's (events/outbox.ts): `claimDue` leases due pending deliveries
 * (never the same one to two claimers while its lease holds; on PostgreSQL `FOR UPDATE SKIP
 * LOCKED`); the claimer then records the attempt with `recordAttempts`, which is fenced by the
 * lease it got — if the lease ran out and another claimer took the delivery, the late result is
 * dropped rather than recorded twice. A crashed claimer's deliveries come due again when their
 * lease ends (at-least-once; the receiver dedupes on the delivery id). Deleting a webhook deletes
 * its deliveries (they stop at once; an attempt in flight then records nothing).
 *
 * Every method takes the account where it addresses one delivery or webhook, and never sees
 * another account's; `claimDue`, `nextDueAt` and `subscribers` work across accounts, as draining does.
 */
import { Context, type DateTime, type Duration, type Effect, type Option } from "effect"
import type { EventName } from "../records/object-kind.ts"
import type { DeliveryState, DeliveryStatus } from "./delivery-state.ts"
import type { WebhookState } from "./webhook-state.ts"

/** One delivery to write. */
export interface NewDelivery {
  /** The account of the webhook. */
  readonly accountId: number
  /** A UUID (v4): the `X-Wasl-Delivery` header of every attempt. */
  readonly id: string
  /** The webhook it goes to. */
  readonly webhookId: number
  /** The event it delivers. */
  readonly event: EventName
  /** The body, serialised once (delivery-request.ts). */
  readonly body: string
  /**
   * The outbox event it came from; null for a redelivery. At most one delivery per (event,
   * webhook): inserting a second is a no-op, which makes fan-out idempotent.
   */
  readonly eventId: string | null
  /** Its state: `queued(createdAt)` for a new delivery. */
  readonly state: DeliveryState
  /** When it was queued. */
  readonly createdAt: DateTime.Utc
  /**
   * The W3C `traceparent` of the span that committed its event (`OutboxEvent.traceParent`), under
   * which its attempts are traced; absent when none was captured, and for a redelivery.
   */
  readonly traceParent?: string | undefined
}

/** The webhook a claimed delivery goes to, as it was at claim time. */
export interface DeliveryTarget {
  /** The endpoint's URL. */
  readonly url: string
  /** The secret sealed with `SecretBox`. */
  readonly secretSealed: string
  /** The webhook's state (whether it still delivers). */
  readonly state: WebhookState
}

/** A delivery handed out by `claimDue`, leased until `claimedUntil`. */
export interface ClaimedDelivery {
  /** The account of the webhook. */
  readonly accountId: number
  /** The delivery's id. */
  readonly id: string
  /** The webhook it goes to. */
  readonly webhookId: number
  /** The event it delivers. */
  readonly event: EventName
  /** The body to send, as serialised when it was queued. */
  readonly body: string
  /** Its state (pending, due). */
  readonly state: DeliveryState
  /** The end of the lease: its result is recorded only while the lease holds. */
  readonly claimedUntil: DateTime.Utc
  /** The webhook as it was at claim time. */
  readonly webhook: DeliveryTarget
  /** The trace context it was queued with (`NewDelivery.traceParent`), if any. */
  readonly traceParent?: string | undefined
}

/** One attempt as recorded for the delivery log. */
export interface DeliveryAttempt {
  /** 1 to DELIVERY_ATTEMPTS. */
  readonly number: number
  /** When it finished. */
  readonly at: DateTime.Utc
  /** The answer's status; null when there was none (timeout, refused address, TLS error ...). */
  readonly statusCode: number | null
  /** How long it took, in milliseconds. */
  readonly durationMillis: number
  /** Why the attempt failed without an answer, or why an answer is a failure (a redirect). */
  readonly error: string | null
  /** The start of the answer's body (at most 4 KiB), for the delivery log. */
  readonly responseExcerpt: string | null
}

/** A delivery as the delivery log shows it. */
export interface DeliveryView {
  /** The delivery's id. */
  readonly id: string
  /** The event it delivers. */
  readonly event: EventName
  /** Pending, succeeded or failed. */
  readonly status: DeliveryStatus
  /** Its attempts so far, first first. */
  readonly attempts: ReadonlyArray<DeliveryAttempt>
  /** When the next attempt is due; null once finished. */
  readonly nextAttemptAt: DateTime.Utc | null
  /** When it was queued. */
  readonly createdAt: DateTime.Utc
}

/** One delivery's result for `recordAttempts`. */
export interface AttemptRecord {
  /** The delivery and the lease its claimer holds. */
  readonly lease: DeliveryLease
  /** Its new state. */
  readonly state: DeliveryState
  /** The attempt made; null for a delivery cancelled without one. */
  readonly attempt: DeliveryAttempt | null
  /** A successful attempt: the webhook's failure count goes to 0 with it. */
  readonly clearsFailures: boolean
}

/** The key of one claimed delivery, with the lease that fences its result. */
export interface DeliveryLease {
  /** The account of the delivery. */
  readonly accountId: number
  /** The delivery's id. */
  readonly id: string
  /** The end of the lease as `claimDue` handed it out. */
  readonly claimedUntil: DateTime.Utc
}

/** A webhook that receives an event of its account. */
export interface DeliverySubscription {
  /** The account. */
  readonly accountId: number
  /** The webhook: subscribed to the event, validated and active. */
  readonly webhookId: number
  /** The event. */
  readonly event: EventName
}

/** A failed delivery taken for recovery: what its fresh delivery repeats. */
export interface RecoveredDelivery {
  /** The failed delivery's id. */
  readonly id: string
  /** The event it delivered. */
  readonly event: EventName
  /** Its body, as serialised when it was queued. */
  readonly body: string
}

/** Which failed deliveries of a webhook `takeFailed` takes. */
export interface FailedWindow {
  /** The account of the webhook. */
  readonly accountId: number
  /** The webhook. */
  readonly webhookId: number
  /** The earliest end (`updated_at`) taken, inclusive. */
  readonly since: DateTime.Utc
  /** The latest end taken, inclusive. */
  readonly until: DateTime.Utc
  /** At most this many, the earliest ended first. */
  readonly limit: number
}

/** What the DeliveryRepository port offers (implement this to write an adapter). */
export interface DeliveryRepositoryShape {
  /**
   * The webhooks that receive each given (account, event): subscribed, validated and active.
   * Joins the caller's transaction.
   */
  readonly subscribers: (
    events: ReadonlyArray<{ readonly accountId: number; readonly event: EventName }>
  ) => Effect.Effect<ReadonlyArray<DeliverySubscription>>
  /** Writes the deliveries; one that repeats an (event, webhook) already queued is skipped. */
  readonly insert: (deliveries: ReadonlyArray<NewDelivery>) => Effect.Effect<void>
  /**
   * Leases up to `limit` pending deliveries whose next attempt is due (`now` from the Clock),
   * earliest due first, until `now + leaseFor`.
   */
  readonly claimDue: (limit: number, leaseFor: Duration.Input) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
  /** When the earliest pending delivery that is not leased comes due; none when nothing is pending. */
  readonly nextDueAt: Effect.Effect<Option.Option<DateTime.Utc>>
  /**
   * Stores each delivery's new state and, when given, its attempt, ending its lease — only while
   * the lease is still `lease.claimedUntil` and the delivery still exists; a record whose
   * delivery is not so (lease lost, webhook deleted) writes nothing. A record with
   * `clearsFailures` also sets its webhook's `consecutive_failures` to 0 (`deliverySucceeded`; no
   * write, and no lock, when it is 0); such a webhook is locked before the delivery rows (the lock
   * order of `lockWebhook`).
   * Returns the ids of the deliveries recorded.
   */
  readonly recordAttempts: (records: ReadonlyArray<AttemptRecord>) => Effect.Effect<ReadonlySet<string>>
  /** Ends the leases now (graceful stop): the deliveries can be claimed again at once. */
  readonly release: (leases: ReadonlyArray<DeliveryLease>) => Effect.Effect<void>
  /**
   * The webhook's state, locked for update until the caller's transaction ends; none once deleted.
   * Lock order: a transaction that locks a webhook and its deliveries takes the webhook first, as
   * deleting a webhook does (the row, then its deliveries by cascade), so the two never deadlock.
   */
  readonly lockWebhook: (accountId: number, webhookId: number) => Effect.Effect<Option.Option<DeliveryTarget>>
  /** Stores `is_active`, `consecutive_failures` and `last_failure_at`. */
  readonly saveWebhookHealth: (accountId: number, webhookId: number, state: WebhookState) => Effect.Effect<void>
  /** Whether the account holds the webhook. */
  readonly webhookExists: (accountId: number, webhookId: number) => Effect.Effect<boolean>
  /** A page of the webhook's deliveries, newest first, and how many it has in all. */
  readonly list: (
    accountId: number,
    webhookId: number,
    page: { readonly offset: number; readonly limit: number }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<DeliveryView>; readonly total: number }>
  /**
   * Takes for recovery the webhook's deliveries that ended `failed` within the window and were not
   * taken before, at most `limit`, the earliest ended first (then by id): marks them recovered
   * (`recovered_at`, now) and answers them. A delivery is taken once: a second call, concurrent
   * or later, does not answer it again. Joins the caller's transaction, so the marks commit with
   * the fresh deliveries queued for them (or roll back with them).
   */
  readonly takeFailed: (window: FailedWindow) => Effect.Effect<ReadonlyArray<RecoveredDelivery>>
  /** The event and body of one of the webhook's deliveries. */
  readonly findBody: (
    accountId: number,
    webhookId: number,
    deliveryId: string
  ) => Effect.Effect<Option.Option<{ readonly event: EventName; readonly body: string }>>
}

const DeliveryRepositoryBase: Context.ServiceClass<
  DeliveryRepository,
  "@wasl/core/DeliveryRepository",
  DeliveryRepositoryShape
> = Context.Service<DeliveryRepository, DeliveryRepositoryShape>()("@wasl/core/DeliveryRepository")

/**
 * The delivery queue: deliveries, their attempts and the webhook health the worker keeps. Due
 * deliveries are leased to one claimer at a time, and a result is recorded only under the lease
 * it was claimed with.
 */
export class DeliveryRepository extends DeliveryRepositoryBase {}
