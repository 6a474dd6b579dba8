/**
 * The ports of the messaging and OTP use-case tests, all in memory: `TestPorts`, the memory
 * messaging provider (its `SentMessages` stand in for the recipient's phone), Meta's template
 * review (`ReviewedTemplates` plays the reviewer), the messaging settings and a SecretBox (the records are `TestPorts`' memory ones).
 */
import { MessagingProviderMemory, MessagingSettingsLayer, TemplateReviewMemory } from "@wasl/adapters/memory"
import { Duration, Effect, Layer } from "effect"
import { type Principal, SecretBox } from "../../src/Auth.ts"
import { createBroadcast, createPlatform } from "../../src/Messaging.ts"
import { RecordRepository } from "../../src/Records.ts"
import { TestPorts } from "./layers.ts"

const SECRET_KEY = new Uint8Array(32).fill(9)

/** `TestPorts` with the messaging ports, all in memory. */
export const MessagingTestPorts = (options: { readonly otpCooldown?: Duration.Input } = {}) =>
  Layer.mergeAll(
    MessagingProviderMemory,
    TemplateReviewMemory,
    MessagingSettingsLayer({ otpCooldown: options.otpCooldown ?? Duration.seconds(60) }),
    SecretBox.layerAesGcm(SECRET_KEY)
  ).pipe(Layer.provideMerge(TestPorts()))

/** A sandbox sending number and an authentication broadcast on it (codes live `minutes`). */
export const otpBroadcast = (principal: Principal, minutes: number | null = 10) =>
  Effect.gen(function*() {
    const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
    return yield* createBroadcast(principal, {
      name: "Login",
      language: "en",
      platform_id: platform.id,
      template: { name: "login_code", category: "AUTHENTICATION", body: "Your code is {{1}}.", code_expiration_minutes: minutes }
    })
  })

/** A sandbox sending number and a utility broadcast on it without variables ("Your order has shipped."). */
export const shippingBroadcast = (principal: Principal) =>
  Effect.gen(function*() {
    const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
    const broadcast = yield* createBroadcast(principal, {
      name: "Shipping",
      language: "en",
      platform_id: platform.id,
      template: { name: "order_update", category: "UTILITY", body: "Your order has shipped." }
    })
    return { platform, broadcast }
  })

/** A contact of the account reached at `number`. */
export const contactAt = (accountId: number, number: string) =>
  RecordRepository.use((records) =>
    records.insert({
      accountId,
      kind: "contact",
      id: `c0ffee${String(accountId).padStart(6, "0")}${number.replace(/[^0-9]/g, "").slice(-12).padStart(12, "0")}`,
      custom: [],
      values: { whatsapp_number: number }
    })
  ).pipe(Effect.map((stored) => stored.record._id))
