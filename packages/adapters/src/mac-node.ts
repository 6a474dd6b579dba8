/**
 * effect/crypto's `Mac` with HMAC on `node:crypto`: the same tags as Web Crypto, computed
 * synchronously. Core signs every webhook attempt twice (`X-Wasl-Signature` and
 * `webhook-signature`) on the host's `Mac` (core webhooks/hmac.ts), and each Web Crypto signature
 * is an asynchronous job (a thread-pool round trip) for a few hundred bytes: about 6 % of the
 * delivery worker's CPU at saturation (bench/README.md).
 */
import { createHmac } from "node:crypto"
import type { Layer } from "effect"
import { Mac, type SecureRandom } from "effect/crypto"

/** Node's names of the hashes an HMAC key may use. */
const NODE_HASH = { "MD5": "md5", "SHA-1": "sha1", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512" } as const

/**
 * `Mac` whose byte-backed keys sign and verify on `node:crypto` (Effect's own `Mac.layerWebCryptoWith`,
 * so keys, errors and the constant-time verification are Web Crypto's); `CryptoKey`-backed keys and
 * key generation stay on Web Crypto (generated keys come from `SecureRandom`).
 */
export const MacNode: Layer.Layer<Mac.Mac, never, SecureRandom.SecureRandom> = Mac.layerWebCryptoWith({
  hmac: (hash, key, data) => new Uint8Array(createHmac(NODE_HASH[hash], key).update(data).digest())
})
