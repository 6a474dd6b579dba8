/**
 * The two steps of the delivery worker (spec §3.1, §3.2, §6; decisions §6), as use-cases over the
 * ports; the loops that run them live in @wasl/worker.
 *
 * 1. `fanOutEvents`: claims outbox events and, in ONE transaction, writes one delivery per
 *    (event, webhook subscribed to it that is validated and active) and completes the events. The
 *    body is serialised here, once. A second fan-out of the same event (its lease ran out while a
 *    slow claimer still worked) inserts nothing: deliveries are unique per (event, webhook).
 * 2. `attemptDelivery`: one attempt of one claimed delivery. A webhook that no longer delivers
 *    (not validated and active) cancels the delivery without calling it. Otherwise the secret is
 *    opened, the attempt's headers signed with a fresh timestamp, the request sent through
 *    `WebhookTransport`, and the result recorded through the delivery state machine:
 *    - Succeeded: the webhook's failure count goes to 0 (`deliverySucceeded`), in the same
 *      transaction as the attempt;
 *    - Exhausted: the webhook is locked and `deliveryExhausted` applied; when that deactivates it,
 *      `notifyWebhookDeactivated` runs in the same transaction, so the switch-off and its notice
 *      commit together, once.
 *    Every record is fenced by the claim's lease: a result that arrives after the lease was lost is
 *    dropped (the delivery was, or will be, retried by its new claimer).
 */
import { DateTime, Duration, Effect, Option, Result } from "effect"
import { SecureRandom } from "effect/crypto"
import { SecretBox } from "../auth/secret-box.ts"
import { Outbox } from "../events/outbox.ts"
import { Transactor } from "../transactor.ts"
import { DeliveryPolicy } from "../webhooks/delivery-policy.ts"
import {
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryLease,
  DeliveryRepository,
  type NewDelivery
} from "../webhooks/delivery-repository.ts"
import { attemptHeaders, deliveryBody } from "../webhooks/delivery-request.ts"
import { type AttemptOutcome, attemptFinished, cancelled, isSuccessStatus, queued } from "../webhooks/delivery-state.ts"
import { canDeliver, deliveryExhausted } from "../webhooks/webhook-state.ts"
import { type WebhookResponse, WebhookTransport } from "../webhooks/webhook-transport.ts"
import { notifyWebhookDeactivated } from "./webhook-deactivated-notice.ts"

/** What `fanOutEvents` did. */
export interface FanOutResult {
  readonly events: number
  readonly deliveries: number
}

/**
 * Claims up to `limit` outbox events and turns them into deliveries (see the module comment).
 * If the transaction fails the events are released, so they are retried at once.
 */
export const fanOutEvents = Effect.fn("fanOutEvents")(function*(limit: number, leaseFor: Duration.Input) {
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
          createdAt: now
        })
      }
    }
    yield* repo.insert(deliveries)
    yield* outbox.complete(events)
    return deliveries.length
  })).pipe(Effect.onError(() => outbox.release(events)))
  return { events: events.length, deliveries: written } satisfies FanOutResult
})

/** How `attemptDelivery` ended. */
export type AttemptResult =
  | AttemptOutcome
  /** The webhook no longer delivers: the delivery failed without a request. */
  | "Cancelled"
  /** The lease ran out (or the webhook was deleted) before the result was recorded: nothing written. */
  | "Dropped"

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

/** Sends one attempt of a claimed delivery and records it (see the module comment). */
export const attemptDelivery = Effect.fn("attemptDelivery")(function*(delivery: ClaimedDelivery) {
  const repo = yield* DeliveryRepository
  const transactor = yield* Transactor
  const policy = yield* DeliveryPolicy
  const lease = leaseOf(delivery)

  if (!canDeliver(delivery.webhook.state)) {
    const state = yield* Result.match(cancelled(delivery.state), { onSuccess: Effect.succeed, onFailure: Effect.die })
    const recorded = yield* repo.recordAttempt(lease, state, null)
    return (recorded ? "Cancelled" : "Dropped") satisfies AttemptResult as AttemptResult
  }

  const secret = yield* (yield* SecretBox).open(delivery.webhook.secretSealed)
  const startedAt = yield* DateTime.now
  const response: WebhookResponse = Option.isNone(secret)
    // The server key changed since the webhook was created: nothing can be signed. Recorded as a
    // failed attempt so the delivery log says why, instead of a silent stall.
    ? { _tag: "Failed", error: "The webhook secret cannot be read with the server key.", durationMillis: 0 }
    : yield* Effect.flatMap(
      attemptHeaders({
        event: delivery.event,
        deliveryId: delivery.id,
        timestampSeconds: DateTime.toEpochMillis(startedAt) / 1000,
        body: delivery.body,
        secret: secret.value
      }),
      (headers) =>
        WebhookTransport.use((transport) =>
          transport.post({ url: delivery.webhook.url, headers, body: delivery.body, timeout: policy.timeout })
        )
    )
  const finishedAt = yield* DateTime.now
  const succeeded = response._tag === "Answered" && isSuccessStatus(response.status)
  const next = yield* Result.match(attemptFinished(delivery.state, succeeded, finishedAt, policy.schedule), {
    onSuccess: Effect.succeed,
    onFailure: Effect.die
  })
  const attempt = toAttempt(next.state.attempts, startedAt, response)

  if (next.outcome === "Retrying") {
    return (yield* repo.recordAttempt(lease, next.state, attempt)) ? next.outcome : "Dropped"
  }
  return yield* transactor.transaction(Effect.gen(function*() {
    if (!(yield* repo.recordAttempt(lease, next.state, attempt))) return "Dropped" as AttemptResult
    if (next.outcome === "Succeeded") {
      // `deliverySucceeded`: the count goes to 0; a no-op without a lock when it already is.
      yield* repo.clearWebhookFailures(delivery.accountId, delivery.webhookId)
      return next.outcome
    }
    const target = yield* repo.lockWebhook(delivery.accountId, delivery.webhookId)
    if (Option.isNone(target)) return next.outcome
    const exhausted = deliveryExhausted(target.value.state, finishedAt)
    yield* repo.saveWebhookHealth(delivery.accountId, delivery.webhookId, exhausted.state)
    if (exhausted.deactivated) {
      yield* notifyWebhookDeactivated(delivery.accountId, delivery.webhookId, target.value.url)
    }
    return next.outcome
  }))
})

/**
 * The lease a claim takes: the attempt's timeout plus 10 s to sign it before and record it after
 * (both take milliseconds). Kept short on purpose: it is also how long the deliveries a crashed
 * worker had in flight wait before another worker retries them.
 */
export const deliveryLeaseFor = (timeout: Duration.Duration): Duration.Duration =>
  Duration.sum(timeout, Duration.seconds(10))
