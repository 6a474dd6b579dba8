/**
 * `TokenHasher` on `node:crypto`: the same SHA-256 hex and constant-time comparison as core's Web
 * Crypto layer, computed synchronously. Every authenticated request hashes a secret, and Web
 * Crypto's digest is an asynchronous job (a thread-pool round trip) for 40 bytes of input.
 */
import * as NodeCrypto from "node:crypto"
import { Effect, Layer } from "effect"
import { TokenHasher } from "@wasl/core/Auth"

/**
 * One-shot `crypto.hash` (Node 20.12+, 21.7+) where the runtime has it: no `Hash` object made and
 * released per request, which cost the server more than the digest itself. `createHash` elsewhere.
 */
const sha256Hex: (secret: string) => string = typeof NodeCrypto.hash === "function"
  ? (secret) => NodeCrypto.hash("sha256", secret, "hex")
  : (secret) => NodeCrypto.createHash("sha256").update(secret, "utf8").digest("hex")

/**
 * `TokenHasher` on `node:crypto`: the SHA-256 hex of a secret, compared in constant time; the same
 * hashes as core's Web Crypto layer, computed synchronously.
 */
export const TokenHasherNode: Layer.Layer<TokenHasher> = Layer.succeed(
  TokenHasher,
  TokenHasher.of({
    hash: (secret) => Effect.sync(() => sha256Hex(secret)),
    matches: (secret, expectedHash) =>
      Effect.sync(() => {
        const actual = Buffer.from(sha256Hex(secret), "utf8")
        const expected = Buffer.from(expectedHash, "utf8")
        // Equal lengths for timingSafeEqual; an empty or malformed stored hash never matches.
        return actual.length === expected.length && NodeCrypto.timingSafeEqual(actual, expected)
      })
  })
)
