/**
 * The worker's WhatsApp loop on the memory ports under `TestClock`: a stored callback is processed
 * and deleted as soon as it is stored, woken by the inbox's signal alone (every poll is a week
 * away), counted in `wasl_whatsapp_callbacks_processed_total`, and what it held counted in
 * `wasl_whatsapp_callback_items_total`; Meta's `phone_number_quality_update` sets the number's
 * messaging limit tier.
 */
import { assert, describe, it } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { PlatformRepository } from "@wasl/core/Messaging"
import { WhatsAppInbox } from "@wasl/core/WhatsApp"
import { WaslMemory } from "@wasl/adapters/memory"
import { metaWebhook } from "@wasl/adapters/testing"
import { DateTime, Duration, Effect, Exit, Metric, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(5) })
const T0 = DateTime.makeUnsafe("2033-03-03T10:00:00.000Z")

/** Waits (in fiber turns, not time) until `check` holds. */
const eventually = <R>(check: Effect.Effect<boolean, never, R>, what: string) =>
  Effect.gen(function*() {
    for (let turn = 0; turn < 10_000; turn++) {
      if (yield* check) return
      yield* Effect.yieldNow
    }
    return yield* Effect.die(new Error(`never happened: ${what}`))
  })

const counted = (id: string, attribute: string, value: string) =>
  Effect.map(Metric.snapshot, (all) => {
    const found = all.find((m) => m.id === id && m.attributes?.[attribute] === value)
    return found === undefined ? 0 : (found.state as Metric.CounterState<number>).count
  })
const processedCount = counted("wasl_whatsapp_callbacks_processed_total", "outcome", "processed")
const itemCount = (kind: string) => counted("wasl_whatsapp_callback_items_total", "kind", kind)

/** Whether nothing is claimable, even far in the future: the inbox is empty. */
const inboxEmpty = Effect.flatMap(WhatsAppInbox, (inbox) =>
  Effect.map(inbox.claim(100, Duration.millis(1)).pipe(Effect.provide(TestClock.layer())), (rows) => rows.length === 0))

describe("the worker's WhatsApp loop on the memory ports", () => {
  it.effect("processes a stored callback at once, on the inbox's signal, and deletes it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const scope = yield* Scope.make()
      yield* Scope.provide(runDeliveryWorker({ pollInterval: Duration.days(7), otpSweepInterval: Duration.days(7) }), scope)
      const inbox = yield* WhatsAppInbox
      for (const n of [1, 2, 3]) {
        const body = JSON.stringify(metaWebhook.textMessage({ phoneNumberId: "1065", from: "16505551234", id: `wamid.${n}`, text: "Hi" }))
        yield* inbox.insert(body, T0)
      }
      // A stored body that is not Meta's shape is processed too: it is one ignored.
      yield* inbox.insert("not JSON", T0)
      yield* eventually(Effect.map(processedCount, (count) => count === 4), "four callbacks processed")
      // No account has the number 1065: each message's change is an unknown number.
      assert.strictEqual(yield* itemCount("unknown_number"), 3)
      assert.strictEqual(yield* itemCount("ignored"), 1)
      assert.strictEqual(yield* itemCount("message"), 0)
      yield* Scope.close(scope, Exit.void)
      // Claimed with a clock a year ahead: nothing is left, not even leased.
      yield* TestClock.adjust(Duration.days(365))
      assert.isTrue(yield* inboxEmpty)
    }).pipe(Effect.provide(services), Effect.provideService(Metric.MetricRegistry, new Map())))

  it.effect("sets a number's messaging limit tier from Meta's phone_number_quality_update", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const account = yield* AccountRepository.use((accounts) =>
        accounts.create({ name: "Quality", plan: "business", webhookLimit: null, otpCredits: 0 })
      )
      const platform = yield* PlatformRepository.use((repo) =>
        repo.insert(account.id, {
          name: "Cloud",
          display_phone_number: "+1 555 078 3881",
          provider: "whatsapp_cloud",
          phone_id: "106540352242922",
          waba_id: "102290129340398",
          sealed_access_token: null
        })
      )
      const scope = yield* Scope.make()
      yield* Scope.provide(runDeliveryWorker({ pollInterval: Duration.days(7), otpSweepInterval: Duration.days(7) }), scope)
      const body = JSON.stringify(metaWebhook.numberQualityUpdate({
        wabaId: "102290129340398",
        displayPhoneNumber: "15550783881",
        event: "THROUGHPUT_UPGRADE",
        currentLimit: "TIER_UNLIMITED"
      }))
      yield* (yield* WhatsAppInbox).insert(body, T0)
      const tier = PlatformRepository.use((repo) => repo.findById(account.id, platform.id)).pipe(
        Effect.map((found) => found._tag === "Some" ? found.value.messaging_limit_tier : null)
      )
      yield* eventually(Effect.map(tier, (t) => t === "TIER_UNLIMITED"), "the tier set")
      assert.strictEqual(yield* itemCount("ignored"), 0)
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.provide(services), Effect.provideService(Metric.MetricRegistry, new Map())))
})
