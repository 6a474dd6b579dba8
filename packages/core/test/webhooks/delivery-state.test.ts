/**
 * The delivery state machine (6 attempts, the retry schedule): model-based property tests over random
 * sequences of attempts, cancellations and clock steps (the testing kit's `deliveryCommands`
 * against its reference model), and the retry schedule walked on the TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Result } from "effect"
import * as fc from "fast-check"
import {
  attemptFinished,
  attemptSucceeded,
  DEFAULT_RETRY_SCHEDULE,
  DELIVERY_ATTEMPTS,
  isDue,
  isSuccessStatus,
  parseRetrySchedule,
  queued
} from "../../src/Deliveries.ts"
import { parseDurationText } from "../../src/Deployment.ts"
import {
  deliveryCommands,
  deliveryModel,
  deliveryModelSetup,
  failedAttemptResponse,
  retrySchedule,
  successStatus,
  transportFailure,
  timeoutFailure,
  walkRetrySchedule
} from "../../src/testing/index.ts"

const T0 = DateTime.makeUnsafe("2026-11-21T10:00:00.000Z")

describe("delivery state machine", () => {
  it("random sequences of attempts, cancellations and time keep every invariant of the model", () => {
    fc.assert(
      fc.property(retrySchedule(), fc.integer({ min: 0, max: 1_000_000 }), deliveryCommands(), (schedule, offset, cmds) => {
        const start = DateTime.addDuration(T0, Duration.millis(offset))
        const setup = deliveryModelSetup({ schedule, start })
        // The queued delivery agrees with the model before any step (also when no step is drawn).
        assert.deepStrictEqual(deliveryModel.compare(setup.model.state, queued(start, schedule), setup.model.nowMillis), [])
        fc.modelRun(() => setup, cmds)
      }),
      { numRuns: 500 }
    )
  })

  it("six failures in a row exhaust the delivery exactly once, whatever the failures (statuses, connections, timeouts)", () => {
    fc.assert(
      fc.property(
        fc.array(failedAttemptResponse, { minLength: DELIVERY_ATTEMPTS, maxLength: DELIVERY_ATTEMPTS }),
        (responses) => {
          let state = queued(T0)
          const outcomes: Array<string> = []
          for (const response of responses) {
            const next = Result.getOrThrow(attemptFinished(state, attemptSucceeded(response), T0))
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
      fc.property(fc.integer({ min: 0, max: 5 }), successStatus, (failuresFirst, status) => {
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

  it("an attempt succeeds only when the endpoint answered 2xx: a failed connection or a timeout never does", () => {
    assert.isTrue(attemptSucceeded({ _tag: "Answered", status: 204, body: "", durationMillis: 3 }))
    assert.isFalse(attemptSucceeded({ _tag: "Answered", status: 302, body: "", durationMillis: 3 }))
    fc.assert(fc.property(fc.oneof(transportFailure, timeoutFailure()), (response) => !attemptSucceeded(response)))
  })

  it.effect("with TestClock: the default schedule makes attempts due at 0, +5 min, +30 min, +1 h, +3 h, +1 day", () =>
    Effect.gen(function*() {
      const walk = yield* walkRetrySchedule()
      assert.deepStrictEqual(walk.map((a) => Duration.toMillis(a.waited)), [0, 5 * 60_000, 30 * 60_000, 3_600_000, 3 * 3_600_000, 86_400_000])
      for (const a of walk) {
        assert.isFalse(a.dueEarly, `attempt ${a.attempt} is not due 1 ms early`)
        assert.isTrue(a.dueOnTime, `attempt ${a.attempt} is due on time`)
      }
      const last = walk[walk.length - 1]!
      assert.strictEqual(last.outcome, "Exhausted")
      assert.strictEqual(last.state.status, "failed")
      assert.isFalse(isDue(last.state, yield* DateTime.now))
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
