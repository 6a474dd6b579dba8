/**
 * The delivery state machine (spec §3.2, §6.3): model-based property tests over random
 * sequences of attempts, cancellations and clock steps, and the retry schedule driven by
 * TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import {
  attemptFinished,
  cancelled,
  DEFAULT_RETRY_SCHEDULE,
  DELIVERY_ATTEMPTS,
  type DeliveryState,
  isDue,
  isSuccessStatus,
  parseDurationText,
  parseRetrySchedule,
  queued,
  type RetrySchedule
} from "../../src/index.ts"

const T0 = DateTime.makeUnsafe("2026-11-21T10:00:00.000Z")
const ms = DateTime.toEpochMillis

// ---------------------------------------------------------------------------------------------
// Model-based: random sequences against a simple model
// ---------------------------------------------------------------------------------------------

interface Model {
  /** Attempts made. */
  attempts: number
  finished: "succeeded" | "failed" | null
  /** Epoch ms the next attempt is due; null when finished. */
  dueAt: number | null
  /** Exhausted outcomes seen (at most one per delivery). */
  exhaustions: number
  /** Whether the delivery ended by cancellation (no failure counted). */
  cancelled: boolean
}

interface Real {
  state: DeliveryState
  now: DateTime.Utc
  schedule: RetrySchedule
}

/** Invariants that hold after every step. */
const checkInvariants = (m: Model, r: Real) => {
  assert.strictEqual(r.state.attempts, m.attempts)
  assert.isAtMost(r.state.attempts, r.schedule.length)
  assert.strictEqual(r.state.status, m.finished ?? "pending")
  // pending ⇔ a next attempt is scheduled
  assert.strictEqual(r.state.status === "pending", r.state.nextAttemptAt !== null)
  assert.strictEqual(r.state.nextAttemptAt === null ? null : ms(r.state.nextAttemptAt), m.dueAt)
  assert.isAtMost(m.exhaustions, 1)
  // Exhausted only after the last attempt, never by a cancellation
  if (m.exhaustions === 1) {
    assert.strictEqual(r.state.status, "failed")
    assert.strictEqual(r.state.attempts, r.schedule.length)
  }
}

class Advance implements fc.Command<Model, Real> {
  readonly millis: number
  constructor(millis: number) {
    this.millis = millis
  }
  check = () => true
  run(_m: Model, r: Real) {
    r.now = DateTime.addDuration(r.now, Duration.millis(this.millis))
  }
  toString = () => `advance(${this.millis})`
}

class Attempt implements fc.Command<Model, Real> {
  readonly status: number
  constructor(status: number) {
    this.status = status
  }
  check = () => true
  run(m: Model, r: Real) {
    const ok = isSuccessStatus(this.status)
    const result = attemptFinished(r.state, ok, r.now, r.schedule)
    if (m.finished !== null) {
      // A finished delivery accepts nothing more.
      assert.isTrue(Result.isFailure(result))
      return
    }
    assert.isTrue(Result.isSuccess(result))
    const { state, outcome } = Result.getOrThrow(result)
    m.attempts += 1
    if (ok) {
      assert.strictEqual(outcome, "Succeeded")
      m.finished = "succeeded"
      m.dueAt = null
    } else if (m.attempts === r.schedule.length) {
      assert.strictEqual(outcome, "Exhausted")
      m.finished = "failed"
      m.dueAt = null
      m.exhaustions += 1
    } else {
      assert.strictEqual(outcome, "Retrying")
      // attempt n + 1 is due schedule[n] after attempt n failed
      m.dueAt = ms(r.now) + Duration.toMillis(r.schedule[m.attempts]!)
    }
    r.state = state
    checkInvariants(m, r)
  }
  toString = () => `attempt(${this.status})`
}

class Cancel implements fc.Command<Model, Real> {
  check = () => true
  run(m: Model, r: Real) {
    const result = cancelled(r.state)
    if (m.finished !== null) {
      assert.isTrue(Result.isFailure(result))
      return
    }
    r.state = Result.getOrThrow(result)
    m.finished = "failed"
    m.dueAt = null
    m.cancelled = true
    checkInvariants(m, r)
  }
  toString = () => "cancel"
}

const statusArb = fc.oneof(
  fc.integer({ min: 200, max: 299 }),
  fc.constantFrom(301, 302, 307, 308, 400, 401, 404, 410, 429, 500, 502, 503),
  fc.integer({ min: 100, max: 599 })
)

const commandsArb = fc.commands(
  [
    fc.integer({ min: 0, max: 90_000_000 }).map((n) => new Advance(n)),
    statusArb.map((s) => new Attempt(s)),
    // failures are the interesting path: weight them up
    fc.constantFrom(500, 404, 302).map((s) => new Attempt(s)),
    fc.constant(new Cancel())
  ],
  { maxCommands: 30 }
)

const scheduleArb: fc.Arbitrary<RetrySchedule> = fc.oneof(
  fc.constant(DEFAULT_RETRY_SCHEDULE),
  fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: DELIVERY_ATTEMPTS, maxLength: DELIVERY_ATTEMPTS })
    .map((delays) => delays.map(Duration.millis))
)

describe("delivery state machine", () => {
  it("random sequences of attempts, cancellations and time keep every invariant of the model", () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 1_000_000 }), commandsArb, (schedule, offset, commands) => {
        const start = DateTime.addDuration(T0, Duration.millis(offset))
        const state = queued(start, schedule)
        const model: Model = {
          attempts: 0,
          finished: null,
          dueAt: ms(start) + Duration.toMillis(schedule[0]!),
          exhaustions: 0,
          cancelled: false
        }
        const real: Real = { state, now: start, schedule }
        checkInvariants(model, real)
        fc.modelRun(() => ({ model, real }), commands)
      }),
      { numRuns: 500 }
    )
  })

  it("six failures in a row exhaust the delivery exactly once, whatever the failing statuses", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 100, max: 599 }).filter((s) => !isSuccessStatus(s)), {
          minLength: DELIVERY_ATTEMPTS,
          maxLength: DELIVERY_ATTEMPTS
        }),
        (statuses) => {
          let state = queued(T0)
          const outcomes: Array<string> = []
          for (const status of statuses) {
            const next = Result.getOrThrow(attemptFinished(state, isSuccessStatus(status), T0))
            outcomes.push(next.outcome)
            state = next.state
          }
          assert.deepStrictEqual(outcomes, ["Retrying", "Retrying", "Retrying", "Retrying", "Retrying", "Exhausted"])
          assert.deepStrictEqual(state, { status: "failed", attempts: 6, nextAttemptAt: null })
        }
      )
    )
  })

  it("any 2xx ends the delivery as succeeded at whichever attempt it comes", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 200, max: 299 }), (failuresFirst, status) => {
        let state = queued(T0)
        for (let i = 0; i < failuresFirst; i++) state = Result.getOrThrow(attemptFinished(state, false, T0)).state
        const done = Result.getOrThrow(attemptFinished(state, isSuccessStatus(status), T0))
        assert.strictEqual(done.outcome, "Succeeded")
        assert.deepStrictEqual(done.state, { status: "succeeded", attempts: failuresFirst + 1, nextAttemptAt: null })
      })
    )
  })

  it("only 200–299 are successes: 1xx, 3xx (redirects are not followed), 4xx and 5xx are failed attempts", () => {
    for (const s of [199, 300, 301, 302, 304, 307, 308, 400, 500]) assert.isFalse(isSuccessStatus(s))
    for (const s of [200, 201, 202, 204, 299]) assert.isTrue(isSuccessStatus(s))
  })

  it.effect("with TestClock: the default schedule makes attempts due at 0, +5 min, +30 min, +1 h, +3 h, +1 day", () =>
    Effect.gen(function*() {
      const expected = [0, 5 * 60_000, 30 * 60_000, 3_600_000, 3 * 3_600_000, 86_400_000]
      let state = queued(yield* DateTime.now)
      for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
        const delay = expected[attempt - 1]!
        if (delay > 0) {
          yield* TestClock.adjust(Duration.millis(delay - 1))
          assert.isFalse(isDue(state, yield* DateTime.now), `attempt ${attempt} is not due 1 ms early`)
          yield* TestClock.adjust(Duration.millis(1))
        }
        assert.isTrue(isDue(state, yield* DateTime.now), `attempt ${attempt} is due on time`)
        state = Result.getOrThrow(attemptFinished(state, false, yield* DateTime.now)).state
      }
      assert.strictEqual(state.status, "failed")
      assert.isFalse(isDue(state, yield* DateTime.now))
    }))

  it("parses WASL_RETRY_DELAYS: six durations, else a message", () => {
    const parsed = Result.getOrThrow(parseRetrySchedule("0s,5m,30m,1h,3h,1d"))
    assert.deepStrictEqual(parsed.map(Duration.toMillis), DEFAULT_RETRY_SCHEDULE.map(Duration.toMillis))
    assert.deepStrictEqual(
      Result.getOrThrow(parseRetrySchedule("0s, 200ms,1s,1.5s,2s,250ms")).map(Duration.toMillis),
      [0, 200, 1000, 1500, 2000, 250]
    )
    for (const bad of ["", "0s,5m", "0s,5m,30m,1h,3h,1d,2d", "0s,5x,30m,1h,3h,1d", "0,5m,30m,1h,3h,1d", "-1s,5m,30m,1h,3h,1d"]) {
      assert.isTrue(Result.isFailure(parseRetrySchedule(bad)), bad)
    }
    assert.isTrue(Option.isNone(parseDurationText("30")))
    assert.strictEqual(Option.map(parseDurationText("30s"), Duration.toMillis).pipe(Option.getOrThrow), 30_000)
  })
})
