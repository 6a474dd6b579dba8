/**
 * The memory provider and the messaging settings layer of an all-memory deployment: the provider
 * answers like the sandbox (every number but those starting with 999, ids `wamid.sandbox.<hex>`),
 * for every sending number, and keeps each request — code included — in `SentMessages`, where the
 * last code sent to a number can be read; the settings layer gives the cooldown (60 s unless set)
 * and an OTP code hasher under the given key, or under a fresh random one.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  DEFAULT_OTP_COOLDOWN,
  MessagingProvider,
  MessagingSettings,
  type ProviderRequest
} from "@wasl/core/Messaging"
import { OtpCodeHasher } from "@wasl/core/Otp"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import { TestClock } from "effect/testing"
import { MessagingProviderMemory, MessagingSettingsLayer, SentMessages } from "../../src/memory/index.ts"

const request = (to: string, code?: string, provider: "sandbox" | "whatsapp_cloud" = "sandbox"): ProviderRequest => ({
  platform: { provider, phoneId: null, displayPhoneNumber: "+966110000000", accessToken: null },
  to,
  template: { name: "login_code", language: "en", category: "AUTHENTICATION" },
  ...(code === undefined ? {} : { code })
})

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")

describe("MessagingProviderMemory", () => {
  it.effect("accepts numbers, rejects 999..., and keeps every request with its code and time", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const provider = yield* MessagingProvider
      const sent = yield* SentMessages
      const accepted = yield* provider.send(request("966500000001", "123456"))
      expect(accepted).toEqual({ _tag: "Accepted", messageId: expect.stringMatching(/^wamid\.sandbox\.[0-9a-f]{24}$/) })
      const rejected = yield* provider.send(request("999123456", "654321"))
      expect(rejected).toEqual({ _tag: "Rejected", reason: expect.stringContaining("999") })
      // Only a leading 999 is undeliverable; a Cloud API number is answered the same way, without a network.
      expect((yield* provider.send(request("199912345")))._tag).toBe("Accepted")
      expect((yield* provider.send(request("966500000002", "777777", "whatsapp_cloud")))._tag).toBe("Accepted")

      const all = yield* sent.all
      expect(all.map((m) => [m.request.to, m.request.code, m.outcome._tag])).toEqual([
        ["966500000001", "123456", "Accepted"],
        ["999123456", "654321", "Rejected"],
        ["199912345", undefined, "Accepted"],
        ["966500000002", "777777", "Accepted"]
      ])
      expect(all[0]).toEqual({ at: T0, request: request("966500000001", "123456"), outcome: accepted })
      const ids = all.flatMap((m) => m.outcome._tag === "Accepted" ? [m.outcome.messageId] : [])
      expect(new Set(ids).size).toBe(3)
    }).pipe(Effect.provide(MessagingProviderMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto)))))

  it.effect("keeps texts and read receipts, and serves offered media up to the limit", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const provider = yield* MessagingProvider
      const sent = yield* SentMessages
      const platform = request("1").platform
      const text = yield* provider.sendText(platform, "966500000001", "hi")
      expect(text._tag).toBe("Accepted")
      expect((yield* provider.sendText(platform, "999000", "no"))._tag).toBe("Rejected")
      expect(yield* sent.texts).toEqual([
        { at: T0, platform, to: "966500000001", text: "hi", outcome: text },
        expect.objectContaining({ to: "999000", outcome: expect.objectContaining({ _tag: "Rejected" }) })
      ])
      expect(yield* provider.markRead(platform, "wamid.A")).toEqual({ _tag: "Marked" })
      expect(yield* sent.reads).toEqual(["wamid.A"])
      const bytes = new Uint8Array([1, 2, 3])
      yield* sent.offerMedia("m1", bytes, "image/png")
      expect(yield* provider.fetchMedia(platform, "m1", 3)).toEqual({ _tag: "Fetched", bytes, mimeType: "image/png" })
      expect(yield* provider.fetchMedia(platform, "m1", 2)).toEqual({ _tag: "TooLarge" })
      expect((yield* provider.fetchMedia(platform, "m2", 10))._tag).toBe("Rejected")
      yield* sent.clear
      expect([yield* sent.texts, yield* sent.reads]).toEqual([[], []])
    }).pipe(Effect.provide(MessagingProviderMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto)))))

  it.effect("finds the last code accepted for a number, in any form; rejected and codeless sends do not count", () =>
    Effect.gen(function*() {
      const provider = yield* MessagingProvider
      const sent = yield* SentMessages
      expect(yield* sent.lastCodeTo("+966500000001")).toEqual(Option.none())
      yield* provider.send(request("966500000001", "111111"))
      yield* provider.send(request("966500000001", "222222"))
      yield* provider.send(request("966500000001"))
      yield* provider.send(request("966500000009", "999999"))
      expect(yield* sent.lastCodeTo("+966 50 000 0001")).toEqual(Option.some("222222"))
      expect(yield* sent.lastCodeTo("966500000001")).toEqual(Option.some("222222"))
      yield* provider.send(request("99912345", "333333"))
      expect(yield* sent.lastCodeTo("+99912345")).toEqual(Option.none())
      yield* sent.clear
      expect(yield* sent.all).toEqual([])
      expect(yield* sent.lastCodeTo("966500000001")).toEqual(Option.none())
    }).pipe(Effect.provide(MessagingProviderMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto)))))
})

describe("MessagingSettingsLayer", () => {
  const settingsOf = (layer: ReturnType<typeof MessagingSettingsLayer>) =>
    Effect.gen(function*() {
      return { settings: yield* MessagingSettings, hasher: yield* OtpCodeHasher }
    }).pipe(Effect.provide(layer.pipe(Layer.provide(SecureRandom.layerWebCrypto))))

  const key = new Uint8Array(32).fill(7)

  it.effect("gives the cooldown (60 seconds unless set) and hashes codes under the given key", () =>
    Effect.gen(function*() {
      const defaults = yield* settingsOf(MessagingSettingsLayer())
      expect(Duration.toMillis(defaults.settings.otpCooldown)).toBe(Duration.toMillis(DEFAULT_OTP_COOLDOWN))
      expect(Duration.toMillis(DEFAULT_OTP_COOLDOWN)).toBe(60_000)
      const set = yield* settingsOf(MessagingSettingsLayer({ otpCooldown: "5 seconds", otpCodeKey: key }))
      expect(Duration.toMillis(set.settings.otpCooldown)).toBe(5_000)
      const direct = yield* OtpCodeHasher.use((hasher) => hasher.hash("0123456789abcdef01234567", "123456")).pipe(
        Effect.provide(OtpCodeHasher.layerHmacSha256(key))
      )
      expect(yield* set.hasher.hash("0123456789abcdef01234567", "123456")).toBe(direct)
    }))

  it.effect("without a key, hashes under a fresh random key per build", () =>
    Effect.gen(function*() {
      const one = (yield* settingsOf(MessagingSettingsLayer())).hasher
      const two = (yield* settingsOf(MessagingSettingsLayer())).hasher
      const stored = yield* one.hash("0123456789abcdef01234567", "123456")
      expect(stored).toMatch(/^[0-9a-f]{64}$/)
      expect(yield* one.matches("0123456789abcdef01234567", "123456", stored)).toBe(true)
      expect(yield* one.matches("0123456789abcdef01234567", "123457", stored)).toBe(false)
      expect(yield* two.matches("0123456789abcdef01234567", "123456", stored)).toBe(false)
    }))
})
