/** The node:crypto TokenHasher agrees with core's Web Crypto one on every input. */
import { assert, describe, it } from "@effect/vitest"
import { TokenHasher } from "@wasl/core/Auth"
import { Effect, Schema } from "effect"
import { TokenHasherNode } from "../src/token-hasher-node.ts"

const hasher = Effect.gen(function*() {
  return yield* TokenHasher
})
const both = Effect.all([Effect.provide(hasher, TokenHasherNode), Effect.provide(hasher, TokenHasher.layerWebCrypto)])

describe("TokenHasherNode", () => {
  it.effect.prop("hashes like the Web Crypto layer and matches only its own hash", [Schema.String, Schema.String], ([secret, other]) =>
    Effect.gen(function*() {
      const [node, web] = yield* both
      const hash = yield* node.hash(secret)
      assert.strictEqual(hash, yield* web.hash(secret))
      assert.match(hash, /^[0-9a-f]{64}$/)
      assert.isTrue(yield* node.matches(secret, hash))
      // Lone surrogates encode as U+FFFD, so two different strings can share their UTF-8 bytes.
      const sameBytes = new TextEncoder().encode(other).join() === new TextEncoder().encode(secret).join()
      assert.strictEqual(yield* node.matches(other, hash), sameBytes)
      assert.isFalse(yield* node.matches(secret, ""))
      assert.isFalse(yield* node.matches(secret, hash.toUpperCase() === hash ? hash + "0" : hash.toUpperCase()))
    }))
})
