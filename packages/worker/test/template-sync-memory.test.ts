/**
 * The worker's template review sync on the memory ports under `TestClock`
 * (`ReviewedTemplates` plays Meta's reviewer): a review whose webhook never arrived is read back
 * from Meta when the worker starts and then every `templateSyncInterval` (15 minutes by default),
 * not before.
 */
import { assert, describe, it } from "@effect/vitest"
import { ReviewedTemplates, WaslMemory } from "@wasl/adapters/memory"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { authenticateToken, type Principal } from "@wasl/core/Auth"
import { createBroadcast, createPlatform, getBroadcast } from "@wasl/core/Messaging"
import { Duration, Effect, Exit, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(5) })

const eventually = <R>(check: Effect.Effect<boolean, never, R>, what: string) =>
  Effect.gen(function*() {
    for (let turn = 0; turn < 10_000; turn++) {
      if (yield* check) return
      yield* Effect.yieldNow
    }
    return yield* Effect.die(new Error(`never happened: ${what}`))
  })

const submitted = (principal: Principal, platformId: number, name: string) =>
  createBroadcast(principal, {
    name,
    language: "en_US",
    platform_id: platformId,
    template: { name, category: "UTILITY", body: "Your order has shipped." }
  })

describe("the worker's template review sync", () => {
  it.effect("reads the reviews back from Meta when it starts, then every 15 minutes", () =>
    Effect.gen(function*() {
      const created = yield* bootstrapAccount({ account: "Acme", email: "sync@example.com", password: "a long password", plan: "business", otpCredits: 0 })
      const principal = yield* authenticateToken(created.token)
      const platform = yield* createPlatform(principal, {
        name: "Cloud",
        display_phone_number: "+966110000001",
        provider: "whatsapp_cloud",
        phone_id: "1234567890",
        waba_id: "102290129340398",
        access_token: "EAAB-token"
      })
      const first = yield* submitted(principal, platform.id, "first_update")
      yield* ReviewedTemplates.use((meta) => meta.review(first.template.external_id!, "APPROVED"))
      const statusOf = (id: number) => Effect.map(getBroadcast(principal, id).pipe(Effect.orDie), (b) => b.status)

      const scope = yield* Scope.make()
      yield* Scope.provide(runDeliveryWorker({ pollInterval: Duration.days(7), otpSweepInterval: Duration.days(7) }), scope)
      yield* eventually(Effect.map(statusOf(first.id), (s) => s === "APPROVED"), "the first review read back at start")

      const second = yield* submitted(principal, platform.id, "second_update")
      yield* ReviewedTemplates.use((meta) => meta.review(second.template.external_id!, "REJECTED", "INVALID_FORMAT"))
      yield* TestClock.adjust(Duration.minutes(14))
      for (let turn = 0; turn < 100; turn++) yield* Effect.yieldNow
      assert.strictEqual(yield* statusOf(second.id), "PENDING")
      yield* TestClock.adjust(Duration.minutes(1))
      yield* eventually(Effect.map(statusOf(second.id), (s) => s === "REJECTED"), "the second review read back 15 minutes later")
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.provide(services)))
})
