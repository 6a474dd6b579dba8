/**
 * The worker's metrics on the memory ports under `TestClock`: each recorded attempt counts under
 * its outcome, and a delivery's first attempt is timed from its event (an event appended three
 * seconds before the worker starts is attempted three seconds after it happened).
 */
import { assert, describe, it } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { SecretBox } from "@wasl/core/Auth"
import { Outbox } from "@wasl/core/Events"
import { WebhookRepository } from "@wasl/core/Webhooks"
import { MemoryReceivers, WaslMemory } from "@wasl/adapters/memory"
import { DateTime, Duration, Effect, Exit, Metric, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

const T0 = DateTime.makeUnsafe("2035-05-05T10:00:00.000Z")
const URL = "https://metrics-receiver.example/hooks"
const SECRET = "metrics-worker-secret-0123456789"

/** The snapshot of the metric `id` whose attributes include `attributes`. */
const snapshotOf = (id: string, attributes: Record<string, string> = {}) =>
  Effect.map(Metric.snapshot, (all) =>
    all.find((m) => m.id === id && Object.entries(attributes).every(([k, v]) => m.attributes?.[k] === v)))

describe("worker metrics", () => {
  it.effect("counts attempts by outcome and times the first attempt from its event", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const account = yield* AccountRepository.use((a) =>
        a.create({ name: "Metrics", plan: "business", webhookLimit: null, otpCredits: 0 })
      )
      const webhooks = yield* WebhookRepository
      const secretSealed = yield* SecretBox.use((box) => box.seal(SECRET))
      const stored = yield* webhooks.insert({ accountId: account.id, url: URL, secretSealed, events: ["deal-created"], now: T0 })
      const state = { isValidated: true, isActive: true, consecutiveFailures: 0, lastFailureAt: null }
      yield* webhooks.update(account.id, stored.id, { url: URL, state, now: T0 })
      const receivers = yield* MemoryReceivers
      yield* receivers.register(URL, SECRET)

      yield* Outbox.use((outbox) => outbox.append([{ accountId: account.id, name: "deal-created", payload: { properties: {} } }]))
      yield* TestClock.adjust(Duration.seconds(3))
      const scope = yield* Scope.make()
      yield* Scope.provide(runDeliveryWorker({ pollInterval: Duration.days(7), otpSweepInterval: Duration.days(7) }), scope)
      yield* receivers.awaitSent(1)

      let succeeded = yield* snapshotOf("wasl_delivery_attempts_total", { outcome: "succeeded" })
      for (let turn = 0; succeeded === undefined && turn < 10_000; turn++) {
        yield* Effect.yieldNow
        succeeded = yield* snapshotOf("wasl_delivery_attempts_total", { outcome: "succeeded" })
      }
      assert.strictEqual((succeeded?.state as Metric.CounterState<number>).count, 1)
      const latency = (yield* snapshotOf("wasl_delivery_first_attempt_latency_seconds"))?.state as Metric.HistogramState
      assert.strictEqual(latency.count, 1)
      assert.strictEqual(latency.sum, 3)
      yield* Scope.close(scope, Exit.void)
    }).pipe(
      Effect.provide(WaslMemory.layer({ secretKey: new Uint8Array(32).fill(8) })),
      // A registry of this test's own: the counts start at zero.
      Effect.provideService(Metric.MetricRegistry, new Map())
    ))
})
