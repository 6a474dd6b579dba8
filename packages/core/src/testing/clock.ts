/**
 * TestClock moves to the instants the state machines care about: when a delivery's next attempt
 * comes due, when a verification expires. Each is an Effect that needs the `TestClock` of
 * `effect/testing` as the clock (what `it.effect` of `@effect/vitest` provides, or `withTestClock`);
 * none moves the clock back.
 */
import { Clock, DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import type { Verification } from "../messaging/otp-verification.ts"
import type { DeliveryState } from "../webhooks/delivery-state.ts"
import { MODEL_START } from "./model-run.ts"

const isTestClock = (clock: Clock.Clock): clock is TestClock.TestClock =>
  typeof (clock as Partial<TestClock.TestClock>).setTime === "function"

/**
 * Moves the TestClock forward to `at` (nothing when `at` has passed) and answers the time now.
 * Dies when the clock is not a TestClock.
 *
 * @example
 * ```ts
 * const now = yield* advanceTo(DateTime.makeUnsafe("2026-11-21T11:00:00Z"))
 * ```
 */
export const advanceTo = (at: DateTime.Utc): Effect.Effect<DateTime.Utc> =>
  Clock.clockWith((clock) => {
    if (!isTestClock(clock)) {
      return Effect.die(new Error("advanceTo needs the TestClock: run under it.effect, or inside withTestClock"))
    }
    const target = DateTime.toEpochMillis(at)
    return target > clock.currentTimeMillisUnsafe()
      ? Effect.as(clock.setTime(target), at)
      : Effect.sync(() => DateTime.makeUnsafe(clock.currentTimeMillisUnsafe()))
  })

/** Moves the TestClock to 1 ms before `at`: the last instant before something happens at `at`. */
export const advanceToJustBefore = (at: DateTime.Utc): Effect.Effect<DateTime.Utc> =>
  advanceTo(DateTime.subtract(at, { milliseconds: 1 }))

/**
 * Moves the TestClock to when the delivery's next attempt comes due and answers that instant; none
 * (and no move) when the delivery is finished.
 *
 * @example
 * ```ts
 * const due = yield* advanceToNextAttempt(state)
 * assert.isTrue(isDue(state, yield* DateTime.now))
 * ```
 */
export const advanceToNextAttempt = (state: DeliveryState): Effect.Effect<Option.Option<DateTime.Utc>> =>
  state.nextAttemptAt === null ? Effect.succeedNone : Effect.asSome(advanceTo(state.nextAttemptAt))

/**
 * Moves the TestClock to the verification's `expires_at`: from that instant on it is expired (a
 * verify answers NotLive, a read shows `expired`).
 *
 * @example
 * ```ts
 * yield* advanceToExpiry(v)
 * assert.strictEqual(effectiveStatus(v, yield* DateTime.now), "expired")
 * ```
 */
export const advanceToExpiry = (v: Verification): Effect.Effect<DateTime.Utc> => advanceTo(v.expires_at)

/** Moves the TestClock to 1 ms before the verification's `expires_at`: its last live instant. */
export const advanceToLastLiveInstant = (v: Verification): Effect.Effect<DateTime.Utc> => advanceToJustBefore(v.expires_at)

/**
 * Runs `effect` with a fresh TestClock set to `start` (MODEL_START by default), for tests that do
 * not run under `it.effect` or that want a known start.
 *
 * @example
 * ```ts
 * await Effect.runPromise(withTestClock(walkRetrySchedule()))
 * ```
 */
export const withTestClock = <A, E, R>(effect: Effect.Effect<A, E, R>, start: DateTime.Utc = MODEL_START): Effect.Effect<A, E, R> =>
  Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(start)), effect).pipe(Effect.provide(TestClock.layer()))
