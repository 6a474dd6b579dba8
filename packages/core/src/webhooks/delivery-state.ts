/**
 * The delivery state machine: data plus pure transitions.
 *
 * A delivery is one event (or one redelivery) on its way to one webhook. It has up to
 * `DELIVERY_ATTEMPTS` (6) attempts. The retry schedule holds one delay per attempt: attempt 1 is
 * due `delays[0]` after the delivery is queued (0 s: immediately), attempt n + 1 is due
 * `delays[n]` after attempt n failed (5 min, 30 min, 1 h, 3 h, 1 day by default; configurable as
 * `WASL_RETRY_DELAYS` for tests).
 *
 * - a 2xx answer ends the delivery as `succeeded` (outcome `Succeeded`: the webhook's failure
 *   count goes back to 0);
 * - any other answer, a timeout or a failed connection is a failed attempt: the delivery stays
 *   `pending` with the next attempt scheduled (`Retrying`), or, after the last attempt, ends as
 *   `failed` (`Exhausted`: it counts once toward the webhook's `consecutive_failures`);
 * - a due delivery whose webhook no longer delivers (unvalidated by a URL change, switched off,
 *   deactivated) is `cancel`led: `failed` without an attempt, and without counting as a failure of
 *   the webhook — the endpoint was never asked.
 *
 * A finished delivery (`succeeded` or `failed`) accepts no further transition.
 */
import { type Cause, DateTime, Duration, Option, Result, Schema } from "effect"
import { parseDurationText } from "../duration-text.ts"
import type { WebhookResponse } from "./webhook-transport.ts"

/** Attempts per delivery. */
export const DELIVERY_ATTEMPTS = 6

/** A delivery's status as a Schema. */
export const DeliveryStatus: Schema.Literals<readonly ["pending", "succeeded", "failed"]> = Schema.Literals(
  ["pending", "succeeded", "failed"]
).annotate({ identifier: "DeliveryStatus" })
/**
 * `pending` while attempts remain to be made; `succeeded` after a 2xx; `failed` after the last
 * attempt failed or when the delivery was cancelled. Only `pending` changes.
 */
export type DeliveryStatus = typeof DeliveryStatus.Type

/** Where a delivery stands. */
export interface DeliveryState {
  /** Pending, succeeded or failed. */
  readonly status: DeliveryStatus
  /** Attempts made so far (0 to DELIVERY_ATTEMPTS). */
  readonly attempts: number
  /** When the next attempt is due; null once the delivery is finished. */
  readonly nextAttemptAt: DateTime.Utc | null
}

/** One delay per attempt: `delays[0]` before attempt 1, `delays[n]` after a failed attempt n. */
export type RetrySchedule = ReadonlyArray<Duration.Duration>

/** The default schedule: immediately, then 5 min, 30 min, 1 h, 3 h, 1 day after each failure. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = [
  Duration.zero,
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(1),
  Duration.hours(3),
  Duration.days(1)
]

/**
 * How a finished attempt left the delivery: `Succeeded` (a 2xx: the delivery is over),
 * `Retrying` (failed, another attempt is scheduled) or `Exhausted` (failed, and it was the last).
 */
export type AttemptOutcome = "Succeeded" | "Retrying" | "Exhausted"

const DeliveryFinishedBase: Schema.Class<
  DeliveryFinished,
  Schema.TaggedStruct<"DeliveryFinished", { readonly status: typeof DeliveryStatus }>,
  Cause.YieldableError
> = Schema.TaggedError<DeliveryFinished>()("DeliveryFinished", {
  status: DeliveryStatus
})

/** A transition asked of a delivery that is already finished; `status` is where it finished. */
export class DeliveryFinished extends DeliveryFinishedBase {
  /** Says where it finished. */
  override get message(): string {
    return `The delivery has already finished: ${this.status}.`
  }
}

/** Any 2xx status is a success; everything else is a failed attempt. */
export const isSuccessStatus = (status: number): boolean => status >= 200 && status <= 299

/** Whether an attempt succeeded: the endpoint answered with a 2xx (a timeout or failed connection never does). */
export const attemptSucceeded = (response: WebhookResponse): boolean =>
  response._tag === "Answered" && isSuccessStatus(response.status)

/**
 * A new delivery, queued at `now`: `pending`, no attempts, the first attempt due at
 * `now + schedule[0]` (`now` itself with the default schedule).
 */
export const queued = (now: DateTime.Utc, schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE): DeliveryState => ({
  status: "pending",
  attempts: 0,
  nextAttemptAt: DateTime.addDuration(now, delayBefore(schedule, 1))
})

/** The delay before attempt `n` (1-based): `schedule[n - 1]`. */
const delayBefore = (schedule: RetrySchedule, attempt: number): Duration.Duration =>
  schedule[attempt - 1] ?? Duration.zero

/**
 * An attempt finished at `now`, successfully (2xx) or not. `attempts` goes up by one, then:
 * - succeeded → `succeeded`, no next attempt; outcome `Succeeded`;
 * - failed, and attempts has reached `schedule.length` (DELIVERY_ATTEMPTS by default) → `failed`,
 *   no next attempt; outcome `Exhausted`;
 * - failed otherwise → still `pending`, the next attempt due at `now + schedule[attempts]`;
 *   outcome `Retrying`.
 *
 * Fails with DeliveryFinished on a delivery that is not pending (nothing changes). Whether the
 * attempt was due is not checked here.
 */
export const attemptFinished = (
  state: DeliveryState,
  succeeded: boolean,
  now: DateTime.Utc,
  schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE
): Result.Result<{ readonly state: DeliveryState; readonly outcome: AttemptOutcome }, DeliveryFinished> => {
  if (state.status !== "pending") return Result.fail(new DeliveryFinished({ status: state.status }))
  const attempts = state.attempts + 1
  if (succeeded) {
    return Result.succeed({ state: { status: "succeeded", attempts, nextAttemptAt: null }, outcome: "Succeeded" })
  }
  if (attempts >= schedule.length) {
    return Result.succeed({ state: { status: "failed", attempts, nextAttemptAt: null }, outcome: "Exhausted" })
  }
  return Result.succeed({
    state: { status: "pending", attempts, nextAttemptAt: DateTime.addDuration(now, delayBefore(schedule, attempts + 1)) },
    outcome: "Retrying"
  })
}

/**
 * The webhook stopped delivering (unvalidated, switched off, deactivated) before the delivery
 * finished: `failed` with its attempts unchanged and no next attempt. It does not count as a
 * failure of the webhook. Fails with DeliveryFinished on a delivery that is not pending.
 */
export const cancelled = (state: DeliveryState): Result.Result<DeliveryState, DeliveryFinished> =>
  state.status !== "pending"
    ? Result.fail(new DeliveryFinished({ status: state.status }))
    : Result.succeed({ status: "failed", attempts: state.attempts, nextAttemptAt: null })

/** Whether the delivery is pending and its next attempt is due at `now` (due time ≤ now). */
export const isDue = (state: DeliveryState, now: DateTime.Utc): boolean =>
  state.status === "pending" && state.nextAttemptAt !== null &&
  DateTime.toEpochMillis(state.nextAttemptAt) <= DateTime.toEpochMillis(now)

// ---------------------------------------------------------------------------------------------
// Configuration text (`WASL_RETRY_DELAYS`, `WASL_DELIVERY_TIMEOUT`)
// ---------------------------------------------------------------------------------------------

/**
 * `0s,5m,30m,1h,3h,1d` → the schedule. Exactly DELIVERY_ATTEMPTS delays (6 attempts per
 * delivery; tests shorten the delays, never the count). Fails with a message naming the text.
 */
export const parseRetrySchedule = (text: string): Result.Result<RetrySchedule, string> => {
  const parts = text.split(",")
  const delays = parts.map(parseDurationText)
  if (parts.length !== DELIVERY_ATTEMPTS || delays.some(Option.isNone)) {
    return Result.fail(
      `expected ${DELIVERY_ATTEMPTS} comma-separated durations (such as 0s,5m,30m,1h,3h,1d), received "${text}"`
    )
  }
  return Result.succeed(delays.map((d) => Option.getOrThrow(d)))
}
