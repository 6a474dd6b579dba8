/**
 * The testing kit's TestClock helpers, used the way an outside project uses them: a retry schedule
 * walked attempt by attempt, a delivery's next attempt, a code's last live instant and its expiry,
 * with and without `it.effect`.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Exit, Option } from "effect"
import { isDue, queued } from "../../src/Deliveries.ts"
import { effectiveStatus, startVerification } from "../../src/Otp.ts"
import { type WebhookResponse } from "../../src/Webhooks.ts"
import {
  advanceTo,
  advanceToExpiry,
  advanceToLastLiveInstant,
  advanceToNextAttempt,
  MODEL_START,
  walkRetrySchedule,
  withTestClock
} from "../../src/testing/index.ts"

const OK: WebhookResponse = { _tag: "Answered", status: 200, body: "", durationMillis: 1 }
const minutes = (d: Duration.Duration) => Duration.toMillis(d) / 60_000

describe("the kit's TestClock helpers", () => {
  it("walk the default schedule outside it.effect, with withTestClock", async () => {
    const walk = await Effect.runPromise(withTestClock(walkRetrySchedule()))
    assert.deepStrictEqual(walk.map((a) => minutes(a.waited)), [0, 5, 30, 60, 180, 1440])
    assert.deepStrictEqual(walk.map((a) => a.outcome), ["Retrying", "Retrying", "Retrying", "Retrying", "Retrying", "Exhausted"])
    assert.isTrue(walk.every((a) => a.dueOnTime && !a.dueEarly))
    assert.strictEqual(DateTime.toEpochMillis(walk[0]!.dueAt), DateTime.toEpochMillis(MODEL_START))
  })

  it.effect("a walk stops at the attempt that succeeds, on a schedule of your own", () =>
    Effect.gen(function*() {
      const schedule = [0, 1, 2, 3, 4, 5].map((s) => Duration.seconds(s))
      const walk = yield* walkRetrySchedule({ schedule, respond: (attempt) => (attempt === 3 ? OK : { _tag: "Failed", error: "down", durationMillis: 1 }) })
      assert.deepStrictEqual(walk.map((a) => [Duration.toMillis(a.waited), a.outcome]), [[0, "Retrying"], [1000, "Retrying"], [2000, "Succeeded"]])
    }))

  it.effect("moves to a delivery's next attempt, and not at all once it is finished", () =>
    Effect.gen(function*() {
      const state = { ...queued(yield* DateTime.now), nextAttemptAt: DateTime.makeUnsafe(90_000) }
      const due = yield* advanceToNextAttempt(state)
      assert.deepStrictEqual(Option.map(due, DateTime.toEpochMillis), Option.some(90_000))
      assert.isTrue(isDue(state, yield* DateTime.now))
      assert.isTrue(Option.isNone(yield* advanceToNextAttempt({ status: "succeeded", attempts: 1, nextAttemptAt: null })))
      assert.strictEqual(DateTime.toEpochMillis(yield* DateTime.now), 90_000)
    }))

  it.effect("a code is live at its last instant and expired at expires_at; the clock never goes back", () =>
    Effect.gen(function*() {
      const v = startVerification({
        id: "0123456789abcdef01234567",
        account_id: 1,
        broadcast_id: 1,
        contact_id: "76543210fedcba9876543210",
        to: "+966500000000",
        code_hash: "",
        lifetimeMinutes: 5
      }, yield* DateTime.now)
      assert.strictEqual(DateTime.toEpochMillis(yield* advanceToLastLiveInstant(v)), 5 * 60_000 - 1)
      assert.strictEqual(effectiveStatus(v, yield* DateTime.now), "live")
      yield* advanceToExpiry(v)
      assert.strictEqual(effectiveStatus(v, yield* DateTime.now), "expired")
      assert.strictEqual(DateTime.toEpochMillis(yield* advanceTo(DateTime.makeUnsafe(0))), 5 * 60_000)
    }))

  it("needs the TestClock: under the live clock it dies with a message saying so", () => {
    const exit = Effect.runSyncExit(advanceTo(DateTime.makeUnsafe(0)))
    assert.isTrue(Exit.isFailure(exit))
    assert.include(String(Exit.isFailure(exit) ? exit.cause : ""), "TestClock")
  })
})
