/**
 * `recoverDeliveries`: `POST /api/account/webhooks/{id}/recover` `{ since, until? }` queues a fresh
 * delivery of each of the webhook's deliveries that ended failed in the window and was not
 * recovered before (the delivery log's redelivery, for a whole outage at once); permission
 * webhook-update. Unlike a redelivery it needs the webhook validated and active (a 422 otherwise):
 * recovering into a webhook that cancels every fresh delivery at once would spend the failed ones
 * for nothing, since each is recovered once only.
 */
import { DateTime, Duration, Effect, Option, Predicate } from "effect"
import { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, invalid, NotFound, type ValidationFailed } from "../errors.ts"
import { cleanInput, isBlankInput, ownValue } from "../records/body-input.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { Transactor } from "../transactor.ts"
import { DeliveryPolicy } from "../webhooks/delivery-policy.ts"
import { DeliveryRepository, type NewDelivery } from "../webhooks/delivery-repository.ts"
import { queued } from "../webhooks/delivery-state.ts"
import { canDeliver } from "../webhooks/webhook-state.ts"
import { parseDateInput } from "../wire/timestamp.ts"
import { authorize } from "./authenticate.ts"
import { requireWebhook } from "./require-webhook.ts"

/**
 * The longest window a recovery takes: the default retention of finished deliveries (30 days),
 * beyond which there is, by default, nothing left to recover.
 */
export const RECOVERY_WINDOW: Duration.Duration = Duration.days(30)

/**
 * The most deliveries one recovery queues, so that one call is one bounded transaction. The
 * earliest ended go first; a call that queued this many leaves the rest for the next call.
 */
export const RECOVERY_BATCH = 1000

/** The 422 message of a recovery asked of a webhook that does not deliver. */
export const RECOVER_NEEDS_ACTIVE_WEBHOOK =
  "The webhook must be validated and active to recover its deliveries: validate and activate it first."

/** The 422 message of an `until` before `since`. */
export const UNTIL_BEFORE_SINCE = "The until field must be a date after or equal to since."

/** The 422 message of a window longer than {@link RECOVERY_WINDOW}. */
export const RECOVERY_WINDOW_TOO_LONG = "The window from since to until must not exceed 30 days."

/** What a recovery did. */
export interface RecoveryResult {
  /** How many fresh deliveries it queued. */
  readonly queued: number
}

/** `{ since, until? }`: instants in any accepted date form; `until` defaults to `now`. */
const parseWindow = (body: unknown, now: DateTime.Utc) =>
  Effect.gen(function*() {
    const input = cleanInput(Predicate.isObject(body) && !Array.isArray(body) ? body : {}) as object
    const rawSince = ownValue(input, "since")
    if (isBlankInput(rawSince)) return yield* Effect.fail(invalid("since", LaravelMessage.required("since")))
    const since = parseDateInput(rawSince)
    if (Option.isNone(since)) return yield* Effect.fail(invalid("since", LaravelMessage.date("since")))
    const rawUntil = ownValue(input, "until")
    const until = isBlankInput(rawUntil) ? Option.some(now) : parseDateInput(rawUntil)
    if (Option.isNone(until)) return yield* Effect.fail(invalid("until", LaravelMessage.date("until")))
    if (DateTime.isLessThan(until.value, since.value)) return yield* Effect.fail(invalid("until", UNTIL_BEFORE_SINCE))
    if (Duration.isGreaterThan(DateTime.distance(since.value, until.value), RECOVERY_WINDOW)) {
      return yield* Effect.fail(invalid("since", RECOVERY_WINDOW_TOO_LONG))
    }
    return { since: since.value, until: until.value }
  })

/**
 * `POST /api/account/webhooks/{id}/recover` `{ since, until? }`: queues a fresh delivery (new id,
 * attempts from 1, same event and body) of each of the webhook's deliveries that ended failed
 * between `since` and `until` (inclusive; `until` defaults to now) and was not recovered before —
 * at most {@link RECOVERY_BATCH}, the earliest ended first. Each failed delivery is recovered once:
 * a second call, even a concurrent one, does not queue it again. Needs `webhook-update`. Answers
 * how many were queued. Fails {@link Forbidden} without the permission, {@link NotFound} for a
 * webhook the account does not have, {@link ValidationFailed} on `since` or `until` (missing `since`,
 * not a date, `until` before `since`, a window over {@link RECOVERY_WINDOW}) or when the webhook is
 * not validated and active.
 */
export const recoverDeliveries: (
  principal: Principal,
  webhookId: number,
  body: unknown
) => Effect.Effect<
  RecoveryResult,
  Forbidden | NotFound | ValidationFailed,
  DeliveryRepository | SecureRandom.SecureRandom | Transactor
> = Effect.fn("recoverDeliveries")(function*(principal: Principal, webhookId: number, body: unknown) {
  yield* authorize(principal, "webhook-update")
  yield* requireWebhook(principal.accountId, webhookId)
  const now = yield* DateTime.now
  const window = yield* parseWindow(body, now)
  const repo = yield* DeliveryRepository
  const random = yield* SecureRandom.SecureRandom
  const state = queued(now, (yield* DeliveryPolicy).schedule)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    // The webhook first, locked: the lock order of deleting it (the row, then its deliveries), and
    // its state cannot change between this check and the commit.
    const webhook = yield* repo.lockWebhook(principal.accountId, webhookId)
    if (Option.isNone(webhook)) return yield* new NotFound()
    if (!canDeliver(webhook.value.state)) return yield* Effect.fail(invalid("id", RECOVER_NEEDS_ACTIVE_WEBHOOK))
    const failed = yield* repo.takeFailed({ accountId: principal.accountId, webhookId, ...window, limit: RECOVERY_BATCH })
    const fresh: Array<NewDelivery> = []
    for (const original of failed) {
      fresh.push({
        accountId: principal.accountId,
        id: yield* random.uuidV4(),
        webhookId,
        event: original.event,
        body: original.body,
        eventId: null,
        state,
        createdAt: now
      })
    }
    yield* repo.insert(fresh)
    return { queued: fresh.length } satisfies RecoveryResult
  }))
})
