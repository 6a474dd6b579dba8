/**
 * `pruneExpired`: one batch per kind, each with the cutoff its retention gives (now minus the
 * `RetentionPolicy` in effect, the defaults unless provided), and how many went per kind.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  DEFAULT_RETENTION,
  pruneExpired,
  Retention,
  type RetentionKind,
  RetentionPolicy
} from "../../src/Retention.ts"

const NOW = DateTime.makeUnsafe("2035-06-01T12:00:00.000Z")

/** A Retention that records its calls and answers `answer(kind)`. */
const recording = (answer: (kind: RetentionKind) => number) => {
  const calls: Array<{ readonly kind: RetentionKind; readonly cutoff: string; readonly limit: number }> = []
  const service = Retention.of({
    pruneBatch: (kind, cutoff, limit) =>
      Effect.sync(() => {
        calls.push({ kind, cutoff: DateTime.formatIso(cutoff), limit })
        return answer(kind)
      })
  })
  return { calls, service }
}

describe("pruneExpired", () => {
  it.effect("prunes each kind once, before now minus its retention (30, 90 and 30 days by default; idempotency keys at expiry; export files 7 days; finished imports 30 days; finished OTP reservations 30 days; held statuses 7 days; invitations no longer pending 30 days; the trash 30 days; property history a year)", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(NOW))
      const { calls, service } = recording((kind) => (kind === "notifications" ? 7 : 0))
      const result = yield* pruneExpired(100).pipe(Effect.provideService(Retention, service))
      assert.deepStrictEqual(result, { deliveries: 0, notifications: 7, verifications: 0, idempotency: 0, exports: 0, imports: 0, reservations: 0, statusHolds: 0, invitations: 0, trash: 0, history: 0 })
      assert.deepStrictEqual(calls, [
        { kind: "deliveries", cutoff: "2035-05-02T12:00:00.000Z", limit: 100 },
        { kind: "notifications", cutoff: "2035-03-03T12:00:00.000Z", limit: 100 },
        { kind: "verifications", cutoff: "2035-05-02T12:00:00.000Z", limit: 100 },
        { kind: "idempotency", cutoff: "2035-06-01T12:00:00.000Z", limit: 100 },
        { kind: "exports", cutoff: "2035-05-25T12:00:00.000Z", limit: 100 },
        { kind: "imports", cutoff: "2035-05-02T12:00:00.000Z", limit: 100 },
        { kind: "reservations", cutoff: "2035-05-02T12:00:00.000Z", limit: 100 },
        { kind: "statusHolds", cutoff: "2035-05-25T12:00:00.000Z", limit: 100 },
        { kind: "invitations", cutoff: "2035-05-02T12:00:00.000Z", limit: 100 },
        { kind: "trash", cutoff: "2035-05-02T12:00:00.000Z", limit: 100 },
        { kind: "history", cutoff: "2034-06-01T12:00:00.000Z", limit: 100 }
      ])
    }))

  it.effect("takes the retention from the RetentionPolicy in effect", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(NOW))
      const { calls, service } = recording(() => 0)
      yield* pruneExpired(5).pipe(
        Effect.provideService(Retention, service),
        Effect.provideService(RetentionPolicy, { ...DEFAULT_RETENTION, deliveries: Duration.hours(6) })
      )
      assert.deepStrictEqual(calls[0], { kind: "deliveries", cutoff: "2035-06-01T06:00:00.000Z", limit: 5 })
    }))
})
