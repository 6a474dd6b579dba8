/**
 * A delivery walked through its retry schedule on the TestClock: queued now, then each attempt
 * made when it comes due, recording what was due when.
 */
import { DateTime, Duration, Effect, Result } from "effect"
import {
  type AttemptOutcome,
  attemptFinished,
  attemptSucceeded,
  DEFAULT_RETRY_SCHEDULE,
  type DeliveryState,
  isDue,
  queued,
  type RetrySchedule
} from "../webhooks/delivery-state.ts"
import type { WebhookResponse } from "../webhooks/webhook-transport.ts"
import { advanceTo, advanceToJustBefore } from "./clock.ts"

/** One attempt of a walk: when it came due, what was due then, how it ended. */
export interface WalkedAttempt {
  /** 1 for the first attempt. */
  readonly attempt: number
  /** The instant it came due, where the TestClock was moved. */
  readonly dueAt: DateTime.Utc
  /** How long the clock moved from the queueing (or the previous attempt) until it came due. */
  readonly waited: Duration.Duration
  /** Whether `isDue` already held 1 ms before `dueAt` (false when there was no wait). */
  readonly dueEarly: boolean
  /** Whether `isDue` held at `dueAt`. */
  readonly dueOnTime: boolean
  /** How the attempt left the delivery. */
  readonly outcome: AttemptOutcome
  /** The delivery after the attempt. */
  readonly state: DeliveryState
}

/** How a walk goes. */
export interface WalkOptions {
  /** DEFAULT_RETRY_SCHEDULE unless given. */
  readonly schedule?: RetrySchedule
  /** How attempt `n` (1-based) ends; by default every attempt fails with a 503, walking the whole schedule. */
  readonly respond?: (attempt: number) => WebhookResponse
}

const UNAVAILABLE: WebhookResponse = { _tag: "Answered", status: 503, body: "", durationMillis: 1 }

/**
 * Queues a delivery at the TestClock's now, then, attempt by attempt, moves the clock to 1 ms
 * before the attempt is due and to the instant it is due, looking at `isDue` at both, and makes the
 * attempt there, until the delivery ends. Needs the TestClock (`it.effect`, or `withTestClock`).
 *
 * @example
 * ```ts
 * it.effect("attempts come due at 0, 5 min, 30 min, 1 h, 3 h, 1 day", () =>
 *   Effect.gen(function*() {
 *     const walk = yield* walkRetrySchedule()
 *     assert.deepStrictEqual(walk.map((a) => Duration.toMinutes(a.waited)), [0, 5, 30, 60, 180, 1440])
 *     assert.isTrue(walk.every((a) => a.dueOnTime && !a.dueEarly))
 *   }))
 * ```
 */
export const walkRetrySchedule = (options: WalkOptions = {}): Effect.Effect<ReadonlyArray<WalkedAttempt>> =>
  Effect.gen(function*() {
    const { respond = () => UNAVAILABLE, schedule = DEFAULT_RETRY_SCHEDULE } = options
    const queuedAt = yield* DateTime.now
    let state = queued(queuedAt, schedule)
    let since = queuedAt
    const walked: Array<WalkedAttempt> = []
    // Bounded by the schedule whatever the transitions do: a walk always ends.
    while (state.nextAttemptAt !== null && walked.length < schedule.length) {
      const dueAt = state.nextAttemptAt
      const waited = Duration.millis(Math.max(0, DateTime.toEpochMillis(dueAt) - DateTime.toEpochMillis(since)))
      const dueEarly = Duration.isGreaterThan(waited, Duration.zero) && isDue(state, yield* advanceToJustBefore(dueAt))
      const now = yield* advanceTo(dueAt)
      const dueOnTime = isDue(state, now)
      const attempt = walked.length + 1
      const next = attemptFinished(state, attemptSucceeded(respond(attempt)), now, schedule)
      if (Result.isFailure(next)) return yield* Effect.die(next.failure)
      state = next.success.state
      since = now
      walked.push({ attempt, dueAt, waited, dueEarly, dueOnTime, outcome: next.success.outcome, state })
    }
    return walked
  })
