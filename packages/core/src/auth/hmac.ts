/**
 * HMAC-SHA256, the MAC of every webhook signature (`X-Wasl-Signature`, the challenge answer,
 * `webhook-signature`), and HMAC-SHA1, the MAC of TOTP codes (totp.ts), on effect/crypto's
 * `Mac` so core stays portable (Node, Deno, browsers). A key is imported once and then signs any
 * number of messages: a worker signs many attempts with one webhook's secret.
 */
import { Effect, Layer, Option } from "effect"
import { Mac, SecureRandom } from "effect/crypto"

/** Signs a message (a text's UTF-8 bytes, or raw bytes as received) with one key; answers the 32-byte tag. */
export type HmacSha256 = (message: string | Uint8Array) => Effect.Effect<Uint8Array>

// The default when the host provides no `Mac`: Web Crypto needs no configuration, and the
// use-cases and receivers that sign should not have to wire a Mac service. SecureRandom only
// serves Mac.generateKey, which signing never calls.
const MacWebCrypto = Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))

const signerOf = (algorithm: Mac.Algorithm, key: Uint8Array) =>
  Effect.gen(function*() {
    const mac = yield* Mac.Mac
    const macKey = yield* Mac.key(algorithm, key)
    // A byte key of any non-empty length signs: a CryptoError here is a broken runtime.
    return (message: string | Uint8Array) =>
      Effect.orDie(mac.sign(macKey, typeof message === "string" ? new TextEncoder().encode(message) : message))
  })

// On the host's `Mac` when it provides one, else on Web Crypto.
const hostSigner = (algorithm: Mac.Algorithm, key: Uint8Array) =>
  Effect.flatMap(Effect.serviceOption(Mac.Mac), (mac) =>
    Option.isSome(mac)
      ? Effect.provideService(signerOf(algorithm, key), Mac.Mac, mac.value)
      : Effect.provide(signerOf(algorithm, key), MacWebCrypto)).pipe(Effect.orDie)

/**
 * An HMAC-SHA256 signer keyed with `key`, on the host's `Mac` when it provides one (the Node
 * deployment provides `node:crypto`'s, which signs synchronously, where Web Crypto makes every
 * signature an asynchronous thread-pool job), else on Web Crypto. Every `Mac` computes the same
 * tags. The key must not be empty (a defect otherwise: every webhook secret has 32 characters).
 */
export const hmacSha256 = (key: Uint8Array): Effect.Effect<HmacSha256> => hostSigner(Mac.hmacSha256, key)

/** Signs a message's bytes with one key; answers the 20-byte tag. */
export type HmacSha1 = (message: Uint8Array) => Effect.Effect<Uint8Array>

/** An HMAC-SHA1 signer keyed with `key`, on the host's `Mac` as {@link hmacSha256}. The key must not be empty. */
export const hmacSha1 = (key: Uint8Array): Effect.Effect<HmacSha1> => hostSigner(Mac.hmacSha1, key)
