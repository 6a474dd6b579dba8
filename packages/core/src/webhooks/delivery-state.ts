/**
 * The delivery state machine (spec §3.2, §6.3; decisions §6): data plus pure transitions.
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
import { DateTime, Duration, Option, Result, Schema } from "effect"
import type { WebhookResponse } from "./webhook-transport.ts"

/** Attempts per delivery (spec §8). */
export const DELIVERY_ATTEMPTS = 6

export const DeliveryStatus = Schema.Literals(["pending", "succeeded", "failed"]).annotate({
  identifier: "DeliveryStatus"
})
export type DeliveryStatus = typeof DeliveryStatus.Type

/** Where a delivery stands. */
export interface DeliveryState {
  readonly status: DeliveryStatus
  /** Attempts made so far (0 to DELIVERY_ATTEMPTS). */
  readonly attempts: number
  /** When the next attempt is due; null once the delivery is finished. */
  readonly nextAttemptAt: DateTime.Utc | null
}

/** One delay per attempt: `delays[0]` before attempt 1, `delays[n]` after a failed attempt n. */
export type RetrySchedule = ReadonlyArray<Duration.Duration>

/** The schedule of spec §6.3: immediately, 5 min, 30 min, 1 h, 3 h, 1 day. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = [
  Duration.zero,
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(1),
  Duration.hours(3),
  Duration.days(1)
]

/** How a finished attempt left the delivery. */
export type AttemptOutcome = "Succeeded" | "Retrying" | "Exhausted"

/** A transition asked of a delivery that is already finished. */
export class DeliveryFinished extends Schema.TaggedError<DeliveryFinished>()("DeliveryFinished", {
  status: DeliveryStatus
}) {}

/** Spec §6.3: any 2xx status is a success; everything else is a failed attempt. */
export const isSuccessStatus = (status: number): boolean => status >= 200 && status <= 299

/** Whether an attempt succeeded: the endpoint answered with a 2xx (a timeout or failed connection never does). */
export const attemptSucceeded = (response: WebhookResponse): boolean =>
  response._tag === "Answered" && isSuccessStatus(response.status)

/** A new delivery, queued at `now`: pending, its first attempt due after `schedule[0]`. */
export const queued = (now: DateTime.Utc, schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE): DeliveryState => ({
  status: "pending",
  attempts: 0,
  nextAttemptAt: DateTime.addDuration(now, delayBefore(schedule, 1))
})

/** The delay before attempt `n` (1-based): `schedule[n - 1]`. */
const delayBefore = (schedule: RetrySchedule, attempt: number): Duration.Duration =>
  schedule[attempt - 1] ?? Duration.zero

/**
 * An attempt finished at `now`, successfully (2xx) or not. Attempts of a pending delivery only;
 * the number of attempts a delivery gets is `schedule.length` (DELIVERY_ATTEMPTS by default).
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

/** The webhook stopped delivering before the delivery finished: failed, no attempt, no failure counted. */
export const cancelled = (state: DeliveryState): Result.Result<DeliveryState, DeliveryFinished> =>
  state.status !== "pending"
    ? Result.fail(new DeliveryFinished({ status: state.status }))
    : Result.succeed({ status: "failed", attempts: state.attempts, nextAttemptAt: null })

/** Is the delivery's next attempt due at `now`? */
export const isDue = (state: DeliveryState, now: DateTime.Utc): boolean =>
  state.status === "pending" && state.nextAttemptAt !== null &&
  DateTime.toEpochMillis(state.nextAttemptAt) <= DateTime.toEpochMillis(now)

// ---------------------------------------------------------------------------------------------
// Configuration text (decisions §6: `WASL_RETRY_DELAYS`, `WASL_DELIVERY_TIMEOUT`)
// ---------------------------------------------------------------------------------------------

const UNIT_MILLIS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000
}

/** `250ms`, `0s`, `5m`, `1.5h`, `1d` → the duration; none for anything else. */
export const parseDurationText = (text: string): Option.Option<Duration.Duration> => {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text)
  if (match === null) return Option.none()
  return Option.some(Duration.millis(Number(match[1]) * UNIT_MILLIS[match[2]!]!))
}

/**
 * `0s,5m,30m,1h,3h,1d` → the schedule. Exactly DELIVERY_ATTEMPTS delays (spec §8: 6 attempts
 * per delivery; tests shorten the delays, never the count). Fails with a message naming the text.
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
