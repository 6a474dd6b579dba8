/**
 * The two steps of the delivery worker, as use-cases over the
 * ports; the loops that run them live in @wasl/worker.
 *
 * 1. `fanOutEvents`: claims outbox events and, in ONE transaction, writes one delivery per
 *    (event, webhook subscribed to it that is validated and active) and completes the events. The
 *    body is serialised here, once. A second fan-out of the same event (its lease ran out while a
 *    slow claimer still worked) inserts nothing: deliveries are unique per (event, webhook).
 * 2. `sendAttempt` + `recordAttempts` (`attemptDelivery` is both for one delivery): one attempt
 *    of a claimed delivery. A webhook that no longer delivers (not validated and active) cancels
 *    the delivery without calling it. Otherwise the attempt's headers are signed with a fresh
 *    timestamp, the request sent through `WebhookTransport`, and the next state computed by the
 *    delivery state machine. Recording is separate so that a worker can record many attempts in
 *    one statement:
 *    - Succeeded: the webhook's failure count goes to 0 (`deliverySucceeded`) in the same
 *      statement as the attempt's record;
 *    - Exhausted: in its own transaction, the webhook is locked (before the delivery: the lock
 *      order of deleting a webhook, so the two never deadlock), the attempt recorded and
 *      `deliveryExhausted` applied; when that deactivates it, `notifyWebhookDeactivated` runs in
 *      the same transaction, so the switch-off and its notice commit together, once.
 *    Every record is fenced by the claim's lease: a result that arrives after the lease was lost is
 *    dropped (the delivery was, or will be, retried by its new claimer).
 */
import { DateTime, Duration, Effect, Option, Result } from "effect"
import { SecureRandom } from "effect/crypto"
import type { NotificationRepository } from "../account/notification-repository.ts"
import type { SecretBox } from "../auth/secret-box.ts"
import { Outbox } from "../events/outbox.ts"
import { traceParentField } from "../events/trace-parent.ts"
import { Transactor } from "../transactor.ts"
import { DeliveryPolicy } from "../webhooks/delivery-policy.ts"
import {
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryLease,
  DeliveryRepository,
  type NewDelivery
} from "../webhooks/delivery-repository.ts"
import { attemptHeaders, deliveryBody, type DeliverySigner, openSigner } from "../webhooks/delivery-request.ts"
import { type AttemptOutcome, attemptFinished, attemptSucceeded, cancelled, isSuccessStatus, queued } from "../webhooks/delivery-state.ts"
import { canDeliver, deliveryExhausted } from "../webhooks/webhook-state.ts"
import { type WebhookResponse, WebhookTransport } from "../webhooks/webhook-transport.ts"
import { notifyWebhookDeactivated } from "./webhook-deactivated-notice.ts"

/** What `fanOutEvents` did. */
export interface FanOutResult {
  /** How many outbox events were claimed (and completed). */
  readonly events: number
  /** How many deliveries they were turned into. */
  readonly deliveries: number
}

/**
 * The worker's first step: claims up to `limit` outbox events (leased for `leaseFor`) and, in one
 * transaction, writes one delivery per event and webhook subscribed to it that is validated and
 * active, and completes the events. The delivery body is serialised here, once. An event fanned
 * out twice (its lease ran out while a slow claimer still worked) gets no second delivery. If the
 * transaction fails the events are released, so they are retried at once. Answers how many events
 * and deliveries there were.
 */
export const fanOutEvents: (
  limit: number,
  leaseFor: Duration.Input
) => Effect.Effect<
  FanOutResult,
  never,
  DeliveryRepository | Outbox | SecureRandom.SecureRandom | Transactor
> = Effect.fn("fanOutEvents")(function*(limit: number, leaseFor: Duration.Input) {
  const outbox = yield* Outbox
  const events = yield* outbox.claim(limit, leaseFor)
  if (events.length === 0) return { events: 0, deliveries: 0 } satisfies FanOutResult
  const repo = yield* DeliveryRepository
  const random = yield* SecureRandom.SecureRandom
  const { schedule } = yield* DeliveryPolicy
  const transactor = yield* Transactor

  const written = yield* transactor.transaction(Effect.gen(function*() {
    const keys = new Map<string, { readonly accountId: number; readonly event: typeof events[number]["name"] }>()
    for (const event of events) keys.set(`${event.accountId}:${event.name}`, { accountId: event.accountId, event: event.name })
    const subscriptions = yield* repo.subscribers([...keys.values()])
    const webhooksOf = new Map<string, Array<number>>()
    for (const s of subscriptions) {
      const key = `${s.accountId}:${s.event}`
      const list = webhooksOf.get(key)
      if (list === undefined) webhooksOf.set(key, [s.webhookId])
      else list.push(s.webhookId)
    }
    const now = yield* DateTime.now
    const state = queued(now, schedule)
    const deliveries: Array<NewDelivery> = []
    for (const event of events) {
      const webhooks = webhooksOf.get(`${event.accountId}:${event.name}`)
      if (webhooks === undefined) continue
      const body = deliveryBody(event)
      for (const webhookId of webhooks) {
        deliveries.push({
          accountId: event.accountId,
          id: yield* random.uuidV4(),
          webhookId,
          event: event.name,
          body,
          eventId: event.id,
          state,
          createdAt: now,
          ...traceParentField(event.traceParent)
        })
      }
    }
    yield* repo.insert(deliveries)
    yield* outbox.complete(events)
    return deliveries.length
  })).pipe(Effect.onError(() => outbox.release(events)))
  return { events: events.length, deliveries: written } satisfies FanOutResult
})

/** How an attempt ended, once recorded. */
export type AttemptResult =
  | AttemptOutcome
  /** The webhook no longer delivers: the delivery failed without a request. */
  | "Cancelled"
  /** The lease ran out (or the webhook was deleted) before the result was recorded: nothing written. */
  | "Dropped"

/** An attempt made (or a cancellation decided), not yet recorded. */
export interface PendingAttempt {
  /** The delivery attempted. */
  readonly delivery: ClaimedDelivery
  /** What `recordAttempts` writes: the delivery's next state and the attempt, fenced by the lease. */
  readonly record: AttemptRecord
  /** How the attempt ended, or `Cancelled` when the webhook no longer delivers. */
  readonly outcome: AttemptOutcome | "Cancelled"
  /** When the attempt ended: `last_failure_at` if it exhausts the delivery. */
  readonly finishedAt: DateTime.Utc
}

/** The error recorded for an answer that is not a success although the endpoint answered. */
const answerError = (status: number): string | null =>
  status >= 300 && status <= 399
    ? `Redirects are not followed (HTTP ${status}): the endpoint must answer 2xx at the registered URL.`
    : null

const toAttempt = (number: number, at: DateTime.Utc, response: WebhookResponse): DeliveryAttempt =>
  response._tag === "Answered"
    ? {
      number,
      at,
      statusCode: response.status,
      durationMillis: response.durationMillis,
      error: isSuccessStatus(response.status) ? null : answerError(response.status),
      responseExcerpt: response.body
    }
    : { number, at, statusCode: null, durationMillis: response.durationMillis, error: response.error, responseExcerpt: null }

/** The lease of a claimed delivery (what fences its record). */
export const leaseOf = (delivery: ClaimedDelivery): DeliveryLease => ({
  accountId: delivery.accountId,
  id: delivery.id,
  claimedUntil: delivery.claimedUntil
})

/** Finds the signer of a sealed secret (`openSigner`, or a worker's `makeSignerCache`). */
export type SignerLookup = (sealed: string) => Effect.Effect<Option.Option<DeliverySigner>, never, SecretBox>

const orDie = <A, E>(result: Result.Result<A, E>) => Result.match(result, { onSuccess: Effect.succeed, onFailure: Effect.die })

/**
 * Makes one attempt of a claimed delivery, or decides to cancel it (its webhook no longer
 * delivers), and computes the delivery's next state; records nothing (see `recordAttempts`).
 */
// Untraced: the worker runs this once per attempt, a thousand times a second at full load, and a
// traced function captures a call-site stack and opens a span on every call.
export const sendAttempt: (
  delivery: ClaimedDelivery,
  signerFor?: SignerLookup
) => Effect.Effect<PendingAttempt, never, SecretBox | WebhookTransport> = Effect.fnUntraced(function*(
  delivery: ClaimedDelivery,
  signerFor: SignerLookup = openSigner
) {
  const policy = yield* DeliveryPolicy
  const lease = leaseOf(delivery)
  if (!canDeliver(delivery.webhook.state)) {
    const state = yield* orDie(cancelled(delivery.state))
    return {
      delivery,
      record: { lease, state, attempt: null, clearsFailures: false },
      outcome: "Cancelled",
      finishedAt: yield* DateTime.now
    } satisfies PendingAttempt as PendingAttempt
  }
  const signer = yield* signerFor(delivery.webhook.secretSealed)
  const startedAt = yield* DateTime.now
  const response: WebhookResponse = Option.isNone(signer)
    // The server key changed since the webhook was created: nothing can be signed. Recorded as a
    // failed attempt so the delivery log says why, instead of a silent stall.
    ? { _tag: "Failed", error: "The webhook secret cannot be read with the server key.", durationMillis: 0 }
    : yield* Effect.flatMap(
      attemptHeaders({
        event: delivery.event,
        deliveryId: delivery.id,
        timestampSeconds: DateTime.toEpochMillis(startedAt) / 1000,
        body: delivery.body,
        signer: signer.value
      }),
      (headers) =>
        WebhookTransport.use((transport) =>
          transport.post({ url: delivery.webhook.url, headers, body: delivery.body, timeout: policy.timeout })
        )
    )
  const finishedAt = yield* DateTime.now
  const succeeded = attemptSucceeded(response)
  const next = yield* orDie(attemptFinished(delivery.state, succeeded, finishedAt, policy.schedule))
  return {
    delivery,
    record: { lease, state: next.state, attempt: toAttempt(next.state.attempts, startedAt, response), clearsFailures: succeeded },
    outcome: next.outcome,
    finishedAt
  } satisfies PendingAttempt as PendingAttempt
})

/**
 * Records finished attempts: all but the exhausting ones in one statement (a success clearing its
 * webhook's failure count with it); each exhausting one in its own transaction, where the webhook
 * is locked, `deliveryExhausted` applied and, when that deactivates it, `notifyWebhookDeactivated`
 * run — so a switch-off and its notice commit together, once. Answers each attempt's result, in
 * order.
 */
export const recordAttempts: (
  pending: ReadonlyArray<PendingAttempt>
) => Effect.Effect<Array<AttemptResult>, never, DeliveryRepository | NotificationRepository | Transactor> = Effect.fn(
  "recordAttempts"
)(function*(pending: ReadonlyArray<PendingAttempt>) {
  const repo = yield* DeliveryRepository
  const transactor = yield* Transactor
  const simple = pending.filter((p) => p.outcome !== "Exhausted")
  const recorded = simple.length === 0 ? new Set<string>() : yield* repo.recordAttempts(simple.map((p) => p.record))
  const results: Array<AttemptResult> = []
  for (const p of pending) {
    if (p.outcome !== "Exhausted") {
      results.push(recorded.has(p.delivery.id) ? p.outcome : "Dropped")
      continue
    }
    results.push(yield* transactor.transaction(Effect.gen(function*() {
      // Lock order: the webhook row first, then its delivery (what deleting a webhook does: the
      // row, then its deliveries by cascade). Recording first would lock them the other way round
      // and could deadlock with a concurrent delete.
      const target = yield* repo.lockWebhook(p.delivery.accountId, p.delivery.webhookId)
      // A deleted webhook took its deliveries with it: nothing to record.
      if (Option.isNone(target)) return "Dropped" as AttemptResult
      if (!(yield* repo.recordAttempts([p.record])).has(p.delivery.id)) return "Dropped" as AttemptResult
      const exhausted = deliveryExhausted(target.value.state, p.finishedAt)
      yield* repo.saveWebhookHealth(p.delivery.accountId, p.delivery.webhookId, exhausted.state)
      if (exhausted.deactivated) {
        yield* notifyWebhookDeactivated(p.delivery.accountId, p.delivery.webhookId, target.value.url)
      }
      return "Exhausted" as AttemptResult
    })))
  }
  return results
})

/** One attempt of one claimed delivery: {@link sendAttempt} then {@link recordAttempts}; answers its result. */
export const attemptDelivery = (
  delivery: ClaimedDelivery,
  signerFor: SignerLookup = openSigner
): Effect.Effect<
  AttemptResult,
  never,
  DeliveryRepository | NotificationRepository | SecretBox | Transactor | WebhookTransport
> =>
  Effect.flatMap(sendAttempt(delivery, signerFor), (pending) => Effect.map(recordAttempts([pending]), (results) => results[0]!))

/**
 * The lease a claim takes: the attempt's timeout plus 10 s to sign it before and record it after
 * (both take milliseconds). Kept short on purpose: it is also how long the deliveries a crashed
 * worker had in flight wait before another worker retries them.
 */
export const deliveryLeaseFor = (timeout: Duration.Duration): Duration.Duration =>
  Duration.sum(timeout, Duration.seconds(10))
