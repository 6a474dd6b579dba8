import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { randomAlphanumeric } from "../../src/Wire.ts"
import { seededSecureRandom } from "../support/random.ts"

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
const Length = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 300 }))
const Seed = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2 ** 32 - 1 }))

const run = (length: number, seed: number) =>
  Effect.provideService(randomAlphanumeric(length), SecureRandom.SecureRandom, seededSecureRandom(seed))

describe("randomAlphanumeric", () => {
  it.effect.prop("has the requested length and only [A-Za-z0-9]", [Length, Seed], ([length, seed]) =>
    Effect.gen(function*() {
      const s = yield* run(length, seed)
      assert.strictEqual(s.length, length)
      assert.match(s, /^[A-Za-z0-9]*$/)
    }))

  it.effect.prop("is a function of the random source", [Length, Seed], ([length, seed]) =>
    Effect.gen(function*() {
      assert.strictEqual(yield* run(length, seed), yield* run(length, seed))
    }))

  it.effect("covers the whole alphabet, roughly evenly", () =>
    Effect.gen(function*() {
      const s = yield* run(62 * 400, 7)
      const counts = new Map<string, number>()
      for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1)
      assert.strictEqual(counts.size, ALPHABET.length)
      for (const c of ALPHABET) {
        const n = counts.get(c) ?? 0
        // Expected 400 each; a uniform draw stays far inside these bounds.
        assert.isTrue(n > 250 && n < 550, `${c}: ${n}`)
      }
    }))

  it.effect("works with the real Web Crypto source", () =>
    Effect.gen(function*() {
      const a = yield* randomAlphanumeric(40)
      const b = yield* randomAlphanumeric(40)
      assert.match(a, /^[A-Za-z0-9]{40}$/)
      assert.notStrictEqual(a, b)
    }).pipe(Effect.provide(SecureRandom.layerWebCrypto)))
})
