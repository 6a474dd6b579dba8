import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { SecretBox } from "../../src/Auth.ts"

const key = (fill: number) => new Uint8Array(32).fill(fill)
const box = (fill: number) => SecretBox.layerAesGcm(key(fill)).pipe(Layer.provide(SecureRandom.layerWebCrypto))

describe("SecretBox (AES-256-GCM)", () => {
  // UTF-8 cannot carry lone surrogates, so the property is over well-formed strings.
  it.effect.prop("opens what it sealed, and never shows the plaintext", [Schema.String], ([raw]) =>
    Effect.gen(function*() {
      const plain = raw.toWellFormed()
      const secrets = yield* SecretBox
      const sealed = yield* secrets.seal(plain)
      expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/)
      if (plain.length >= 4) expect(sealed).not.toContain(plain)
      expect(yield* secrets.open(sealed)).toEqual(Option.some(plain))
    }).pipe(Effect.provide(box(7))))

  it.effect("uses a fresh nonce for every seal", () =>
    Effect.gen(function*() {
      const secrets = yield* SecretBox
      expect(yield* secrets.seal("same")).not.toBe(yield* secrets.seal("same"))
    }).pipe(Effect.provide(box(7))))

  it.effect("refuses altered, foreign-key and malformed boxes", () =>
    Effect.gen(function*() {
      const sealed = yield* Effect.provide(Effect.gen(function*() {
        return yield* (yield* SecretBox).seal("webhook secret")
      }), box(1))
      const secrets = yield* SecretBox
      expect(yield* secrets.open(sealed)).toEqual(Option.none())
      const [v, n, body] = sealed.split(".")
      const flipped = `${v}.${n}.${body!.slice(0, -2)}${body!.endsWith("A") ? "B" : "A"}${body!.slice(-1)}`
      for (const bad of [flipped, "v2.x.y", "", "v1..", "v1.!!!!.abcd", "v1.AAAAAAAAAAAAAAAA.A"]) {
        expect(yield* secrets.open(bad)).toEqual(Option.none())
      }
    }).pipe(Effect.provide(box(2))))
})
