/**
 * effect/crypto's `Mac` with HMAC on `node:crypto`: the same tags as Web Crypto, computed
 * synchronously. Core signs every webhook attempt twice (`X-Wasl-Signature` and
 * `webhook-signature`) on the host's `Mac` (core auth/hmac.ts), and each Web Crypto signature
 * is an asynchronous job (a thread-pool round trip) for a few hundred bytes: about 6 % of the
 * delivery worker's CPU at saturation (bench/README.md).
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto"
import { Layer } from "effect"
import { Mac, type SecureRandom } from "effect/crypto"

/** Node's names of the hashes an HMAC key may use. */
const NODE_HASH = { "MD5": "md5", "SHA-1": "sha1", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512" } as const

/**
 * `Mac` whose byte-backed keys sign and verify on `node:crypto` (Effect's own `Mac.layerWebCryptoWith`,
 * so keys, errors and the constant-time verification are Web Crypto's); `CryptoKey`-backed keys and
 * key generation stay on Web Crypto (generated keys come from `SecureRandom`).
 */
export const MacNode: Layer.Layer<Mac.Mac, never, SecureRandom.SecureRandom> = Layer.suspend(() => {
  // Each key's bytes as a KeyObject, made once: `createHmac` given bytes checks them against the
  // KeyObject and CryptoKey brands on every call, which took three times as long as the HMAC of a
  // delivery body itself (Node 24). `Mac` hands `hmac` the key's own bytes on every call, so they
  // identify the key, and a key no longer used takes its KeyObject with it.
  const keyObjects = new WeakMap<Uint8Array, KeyObject>()
  const keyObjectOf = (bytes: Uint8Array) => {
    let keyObject = keyObjects.get(bytes)
    if (keyObject === undefined) {
      keyObject = createSecretKey(bytes)
      keyObjects.set(bytes, keyObject)
    }
    return keyObject
  }
  return Mac.layerWebCryptoWith({
    hmac: (hash, key, data) => new Uint8Array(createHmac(NODE_HASH[hash], keyObjectOf(key)).update(data).digest())
  })
})
