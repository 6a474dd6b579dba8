/**
 * The worker's pruning loop on the all-memory ports under `TestClock`: a finished delivery stays
 * through its retention (30 days by default, `RetentionPolicy`) and goes, with its attempts, on
 * the first pruning round after it; a pending delivery never goes. No real time passes.
 */
import { assert, describe, it } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { type ClaimedDelivery, DeliveryRepository } from "@wasl/core/Deliveries"
import { RetentionPolicy, DEFAULT_RETENTION } from "@wasl/core/Retention"
import { WebhookRepository } from "@wasl/core/Webhooks"
import { WaslMemory } from "@wasl/adapters/memory"
import { DateTime, Duration, Effect, Exit, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(6) })

const T0 = DateTime.makeUnsafe("2034-04-04T10:00:00.000Z")

/** Lets every fiber that is ready run. */
const settle = Effect.forEach(Array.from({ length: 100 }), () => Effect.yieldNow, { discard: true })

/** Two deliveries of a fresh webhook, queued at T0 and claimed. */
const twoClaimed = Effect.gen(function*() {
  const account = yield* AccountRepository.use((a) =>
    a.create({ name: "Pruning", plan: "business", webhookLimit: null, otpCredits: 0 })
  )
  const webhooks = yield* WebhookRepository
  const stored = yield* webhooks.insert({
    accountId: account.id,
    url: "https://receiver.example/hooks",
    secretSealed: "sealed",
    events: ["deal-created"],
    now: T0
  })
  const repo = yield* DeliveryRepository
  yield* repo.insert([1, 2].map(() => ({
    accountId: account.id,
    id: globalThis.crypto.randomUUID(),
    webhookId: stored.id,
    event: "deal-created" as const,
    body: "{}",
    eventId: null,
    state: { status: "pending" as const, attempts: 0, nextAttemptAt: T0 },
    createdAt: T0
  })))
  // Leased for longer than any test runs: the worker never claims them itself.
  const claimed = yield* repo.claimDue(2, Duration.days(1000))
  assert.strictEqual(claimed.length, 2)
  return { accountId: account.id, webhookId: stored.id, claimed: claimed as [ClaimedDelivery, ClaimedDelivery] }
})

describe("runDeliveryWorker: pruning on the memory ports", () => {
  it.effect("a finished delivery stays through its retention and goes with its attempts after it; a pending one stays", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const repo = yield* DeliveryRepository
      const { accountId, webhookId, claimed: [done, retrying] } = yield* twoClaimed
      const attempt = { number: 1, at: T0, statusCode: 200, durationMillis: 3, error: null, responseExcerpt: "" }
      const lease = (d: ClaimedDelivery) => ({ accountId, id: d.id, claimedUntil: d.claimedUntil })
      yield* repo.recordAttempts([
        { lease: lease(done), state: { status: "succeeded", attempts: 1, nextAttemptAt: null }, attempt, clearsFailures: true },
        // Its next attempt is due long after the retention: pending all the while.
        {
          lease: lease(retrying),
          state: { status: "pending", attempts: 1, nextAttemptAt: DateTime.add(T0, { days: 400 }) },
          attempt: { ...attempt, statusCode: 503 },
          clearsFailures: false
        }
      ])
      const ids = Effect.map(repo.list(accountId, webhookId, { offset: 0, limit: 10 }), (page) => page.items.map((d) => d.id).sort())

      const scope = yield* Scope.make()
      yield* Scope.provide(
        runDeliveryWorker({ pollInterval: Duration.days(7), otpSweepInterval: Duration.days(7), pruneInterval: Duration.hours(1) }),
        scope
      )
      yield* settle
      // A minute before the retention ends: the worker has pruned every hour, and kept both.
      yield* TestClock.adjust(Duration.subtract(DEFAULT_RETENTION.deliveries, Duration.minutes(1)))
      yield* settle
      assert.deepStrictEqual(yield* ids, [done.id, retrying.id].sort())
      // The next rounds (an hour apart) prune the finished one.
      yield* TestClock.adjust(Duration.hours(2))
      yield* settle
      assert.deepStrictEqual(yield* ids, [retrying.id])
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.provide(services)))

  it.effect("the retention is the RetentionPolicy in effect", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const repo = yield* DeliveryRepository
      const { accountId, webhookId, claimed: [done] } = yield* twoClaimed
      yield* repo.recordAttempts([{
        lease: { accountId, id: done.id, claimedUntil: done.claimedUntil },
        state: { status: "failed", attempts: 1, nextAttemptAt: null },
        attempt: null,
        clearsFailures: false
      }])
      const count = Effect.map(repo.list(accountId, webhookId, { offset: 0, limit: 10 }), (page) => page.total)
      const scope = yield* Scope.make()
      yield* Scope.provide(
        runDeliveryWorker({ pollInterval: Duration.days(7), otpSweepInterval: Duration.days(7), pruneInterval: Duration.minutes(1) }).pipe(
          Effect.provideService(RetentionPolicy, { ...DEFAULT_RETENTION, deliveries: Duration.hours(2) })
        ),
        scope
      )
      yield* TestClock.adjust(Duration.minutes(119))
      yield* settle
      assert.strictEqual(yield* count, 2)
      yield* TestClock.adjust(Duration.minutes(2))
      yield* settle
      assert.strictEqual(yield* count, 1)
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.provide(services)))
})
