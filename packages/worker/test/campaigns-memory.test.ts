/**
 * The worker's campaigns loop on the all-memory ports under `TestClock`: a campaign asked for while
 * the worker runs is started at its next poll and sent at the sending number's pace (sends spaced
 * `1 / sendRate` seconds apart, however many fit in flight), and its creator is told when it
 * completes. No real time passes.
 */
import { assert, describe, it } from "@effect/vitest"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { authenticateToken } from "@wasl/core/Auth"
import { createBroadcast, createCampaign, createPlatform, getCampaign } from "@wasl/core/Messaging"
import { NotificationRepository } from "@wasl/core/Notifications"
import { createRecord } from "@wasl/core/Records"
import { WaslMemory } from "@wasl/adapters/memory"
import { DateTime, Duration, Effect, Exit, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(7) })

/** Lets every fiber that is ready run. */
const settle = Effect.forEach(Array.from({ length: 200 }), () => Effect.yieldNow, { discard: true })

const START = DateTime.toEpochMillis(DateTime.makeUnsafe("2034-05-05T10:00:00.000Z"))

describe("runDeliveryWorker: campaigns on the memory ports", () => {
  it.effect("sends a campaign at the number's pace and tells its creator when it completes", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const created = yield* bootstrapAccount({
        account: "Campaigns",
        email: "campaigns@example.com",
        password: "a long enough password",
        plan: "business",
        otpCredits: 0
      })
      const principal = yield* authenticateToken(created.token)
      const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
      const broadcast = yield* createBroadcast(principal, {
        name: "Sale",
        language: "en",
        platform_id: platform.id,
        template: { name: "spring_sale", category: "MARKETING", body: "The spring sale has started." }
      })
      const ids: Array<string> = []
      for (let i = 0; i < 5; i++) {
        const contact = yield* createRecord(principal, "contact", { firstname: `C${i}`, whatsapp_number: `+96650000100${i}` })
        ids.push(contact.properties._id as string)
      }

      const scope = yield* Scope.make()
      // Two messages a second: the five go out at 0, 0.5, 1, 1.5 and 2 seconds.
      yield* Scope.provide(
        runDeliveryWorker({
          pollInterval: Duration.seconds(1),
          otpSweepInterval: Duration.days(7),
          pruneInterval: Duration.days(7),
          campaigns: { sendRate: 2 }
        }),
        scope
      )
      yield* settle
      const campaign = yield* createCampaign(principal, broadcast.id, { name: "Spring", audience: { contact_ids: ids } })
      assert.strictEqual(campaign.status, "queued")
      const sentAfter = (millis: number) =>
        Effect.gen(function*() {
          yield* TestClock.adjust(Duration.millis(millis))
          yield* settle
          return (yield* getCampaign(principal, campaign._id)).counts.sent
        })
      // The next poll starts it (audience resolved, then its first send at once).
      assert.strictEqual(yield* sentAfter(1_000), 1)
      assert.strictEqual(yield* sentAfter(600), 2)
      assert.strictEqual(yield* sentAfter(500), 3)
      assert.strictEqual(yield* sentAfter(1_000), 5)
      yield* TestClock.adjust(Duration.seconds(10))
      yield* settle
      const done = yield* getCampaign(principal, campaign._id)
      assert.strictEqual(done.status, "completed")
      assert.deepStrictEqual(done.counts, { recipients: 5, sent: 5, delivered: 0, read: 0, failed: 0, skipped: 0 })
      const listed = yield* NotificationRepository.use((n) => n.list(principal.accountId, principal.userId, { offset: 0, limit: 10 }))
      assert.deepStrictEqual(listed.items.map((n) => n.type), ["WhatsappBroadcastCompleted"])
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.provide(services)))
})
