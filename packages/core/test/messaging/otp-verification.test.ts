/**
 * The managed-OTP state machine (spec §3.3, §4.2 rules 3 and 6, §8 one live code; decisions §7
 * five attempts and the 410 statuses): pure transitions, driven by TestClock, checked against a
 * small model over random event sequences.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import {
  attemptsRemaining,
  effectiveStatus,
  formatExpiresAt,
  MAX_VERIFY_ATTEMPTS,
  startVerification,
  supersede,
  type Verification,
  type VerificationStatus,
  verify
} from "../../src/index.ts"

const START = DateTime.makeUnsafe("2026-11-21T10:00:00.000Z")

const onTestClock = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(START)), effect).pipe(Effect.provide(TestClock.layer()))

const start = (lifetimeMinutes: number) =>
  Effect.map(DateTime.now, (now) =>
    startVerification({
      id: "0123456789abcdef01234567",
      account_id: 1,
      broadcast_id: 2,
      contact_id: "76543210fedcba9876543210",
      to: "+966500000000",
      code_hash: "0".repeat(64),
      lifetimeMinutes
    }, now))

const Seconds = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 120 }))
// Small integers weight the draws: a guess is right one time in six, and a newer send (supersede)
// happens one time in six, so runs reach the fifth wrong code as well as every other end state.
const OneInSix = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 5 }))
const Event = Schema.Union([
  Schema.Struct({ _tag: Schema.Literal("Advance"), seconds: Seconds }),
  Schema.Struct({ _tag: Schema.Literal("Verify"), guess: OneInSix }),
  Schema.Struct({ _tag: Schema.Literal("Supersede"), chance: OneInSix })
])
const Events = Schema.Array(Event).check(Schema.isMaxLength(40))
const Lifetime = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10 }))

/** The rules, written as plainly as possible. */
interface Model {
  status: VerificationStatus
  attempts: number
  readonly expiresAtMs: number
}

const modelStatus = (m: Model, nowMs: number): VerificationStatus =>
  m.status === "live" && nowMs >= m.expiresAtMs ? "expired" : m.status

describe("managed OTP verification state machine", () => {
  it.effect("starts live with 5 attempts, expiring lifetime minutes after the send", () =>
    onTestClock(Effect.gen(function*() {
      const v = yield* start(10)
      assert.strictEqual(v.status, "live")
      assert.strictEqual(attemptsRemaining(v), MAX_VERIFY_ATTEMPTS)
      assert.strictEqual(DateTime.toEpochMillis(v.expires_at) - DateTime.toEpochMillis(START), 10 * 60_000)
      assert.strictEqual(formatExpiresAt(v.expires_at), "2026-11-21T10:10:00+00:00")
    })))

  it.effect("is live until the last millisecond and expired from expires_at on", () =>
    onTestClock(Effect.gen(function*() {
      const v = yield* start(5)
      yield* TestClock.adjust(Duration.millis(5 * 60_000 - 1))
      assert.strictEqual(effectiveStatus(v, yield* DateTime.now), "live")
      assert.strictEqual(verify(v, true, yield* DateTime.now)._tag, "Approved")
      yield* TestClock.adjust(Duration.millis(1))
      const late = verify(v, true, yield* DateTime.now)
      assert.strictEqual(late._tag, "NotLive")
      assert.strictEqual(late.next.status, "expired")
    })))

  it.effect("the fifth wrong code locks it; the right code then cannot approve", () =>
    onTestClock(Effect.gen(function*() {
      let v: Verification = yield* start(5)
      const now = yield* DateTime.now
      for (let i = 1; i <= MAX_VERIFY_ATTEMPTS; i++) {
        const r = verify(v, false, now)
        assert.strictEqual(r._tag, "WrongCode")
        if (r._tag === "WrongCode") assert.strictEqual(r.attemptsRemaining, MAX_VERIFY_ATTEMPTS - i)
        v = r.next
      }
      assert.strictEqual(v.status, "max_attempts_reached")
      const after = verify(v, true, now)
      assert.strictEqual(after._tag, "NotLive")
      if (after._tag === "NotLive") assert.strictEqual(after.status, "max_attempts_reached")
    })))

  it.effect("a newer send supersedes a live code (failed) but leaves ended ones as they are", () =>
    onTestClock(Effect.gen(function*() {
      const v = yield* start(5)
      const now = yield* DateTime.now
      assert.strictEqual(supersede(v, now).status, "failed")
      const approved = verify(v, true, now).next
      assert.strictEqual(supersede(approved, now).status, "approved")
    })))

  it.effect.prop("follows the model over any sequence of verifies, supersedes and time", [Lifetime, Events], ([lifetime, events]) =>
    onTestClock(Effect.gen(function*() {
      let v = yield* start(lifetime)
      const model: Model = {
        status: "live",
        attempts: 0,
        expiresAtMs: DateTime.toEpochMillis(START) + lifetime * 60_000
      }
      for (const event of events) {
        if (event._tag === "Advance") {
          yield* TestClock.adjust(Duration.seconds(event.seconds))
          continue
        }
        const now = yield* DateTime.now
        const nowMs = DateTime.toEpochMillis(now)
        const before = modelStatus(model, nowMs)
        const ended = v.status !== "live"
        if (event._tag === "Supersede") {
          if (event.chance !== 0) continue
          v = supersede(v, now)
          model.status = before === "live" ? "failed" : before
        } else {
          const right = event.guess === 0
          const result = verify(v, right, now)
          if (before !== "live") {
            assert.strictEqual(result._tag, "NotLive")
            if (result._tag === "NotLive") assert.strictEqual(result.status, before)
            model.status = before
          } else if (right) {
            assert.strictEqual(result._tag, "Approved")
            model.status = "approved"
          } else {
            model.attempts += 1
            if (model.attempts >= MAX_VERIFY_ATTEMPTS) model.status = "max_attempts_reached"
            assert.strictEqual(result._tag, "WrongCode")
            if (result._tag === "WrongCode") assert.strictEqual(result.attemptsRemaining, MAX_VERIFY_ATTEMPTS - model.attempts)
          }
          v = result.next
        }
        assert.strictEqual(v.status, model.status)
        assert.strictEqual(v.attempts, model.attempts)
        assert.isAtMost(v.attempts, MAX_VERIFY_ATTEMPTS)
        // An ended verification never changes again.
        if (ended) assert.notStrictEqual(v.status, "live")
        // Time and ids never move.
        assert.strictEqual(DateTime.toEpochMillis(v.expires_at), model.expiresAtMs)
        assert.strictEqual(effectiveStatus(v, now), modelStatus(model, nowMs))
      }
    })))
})
