/**
 * The managed-OTP state machine (the expiry, one live code per recipient and template, five
 * attempts and the 410 statuses): pure transitions, driven by TestClock, checked against the
 * testing kit's reference model over random sequences of sends, verifies and clock steps.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import * as fc from "fast-check"
import {
  attemptsRemaining,
  effectiveStatus,
  formatExpiresAt,
  MAX_VERIFY_ATTEMPTS,
  startVerification,
  supersede,
  type Verification,
  verify
} from "../../src/Otp.ts"
import {
  advanceToExpiry,
  advanceToLastLiveInstant,
  otpCommands,
  otpModelSetup,
  withTestClock
} from "../../src/testing/index.ts"

const START = DateTime.makeUnsafe("2026-11-21T10:00:00.000Z")

const onTestClock = <A, E>(effect: Effect.Effect<A, E>) => withTestClock(effect, START)

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
      const last = yield* advanceToLastLiveInstant(v)
      assert.strictEqual(DateTime.toEpochMillis(last) - DateTime.toEpochMillis(START), 5 * 60_000 - 1)
      assert.strictEqual(effectiveStatus(v, yield* DateTime.now), "live")
      assert.strictEqual(verify(v, true, yield* DateTime.now)._tag, "Approved")
      yield* advanceToExpiry(v)
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

  it("follows the model over any sequence of sends, verifies and time", () => {
    fc.assert(fc.property(otpCommands(), (cmds) => fc.modelRun(otpModelSetup, cmds)), { numRuns: 300 })
  })
})
