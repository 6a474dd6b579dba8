/** HMAC-SHA256 signs on the host's `Mac` when one is provided, else on Web Crypto. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"
import { hmacSha256 } from "../../src/Auth.ts"

const KEY = new TextEncoder().encode("0123456789abcdef0123456789abcdef")
/** HMAC-SHA256(KEY, "1732200000:{}"), computed with node:crypto apart from this code. */
const EXPECTED = "21e106770861a9adaa86328c975b4481eb51b456a66a5edbe80f93232169d49a"

describe("hmacSha256", () => {
  it.effect("signs on Web Crypto when the host provides no Mac", () =>
    Effect.gen(function*() {
      const hmac = yield* hmacSha256(KEY)
      assert.strictEqual(Hex.encode(yield* hmac("1732200000:{}")), EXPECTED)
    }))

  it.effect("signs on the host's Mac when one is provided", () =>
    Effect.gen(function*() {
      const signed: Array<string> = []
      // A host Mac whose native `hmac` records what it signs and answers a tag of its own.
      const hostMac = Mac.layerWebCryptoWith({
        hmac: (hash, key, data) => {
          signed.push(`${hash} ${new TextDecoder().decode(key)} ${new TextDecoder().decode(data)}`)
          return new Uint8Array(32).fill(7)
        }
      }).pipe(Layer.provide(SecureRandom.layerWebCrypto))
      const hmac = yield* Effect.provide(hmacSha256(KEY), hostMac)
      assert.strictEqual(Hex.encode(yield* hmac("1732200000:{}")), "07".repeat(32))
      assert.deepStrictEqual(signed, ["SHA-256 0123456789abcdef0123456789abcdef 1732200000:{}"])
    }))
})
