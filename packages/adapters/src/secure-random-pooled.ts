/**
 * `SecureRandom` drawing from a pool of WebCrypto randomness filled 4 KiB at a time. A request
 * takes several small draws (a record id, an event id, a request id: 8 to 16 bytes each), and a
 * `getRandomValues` call costs a crossing into native code whatever its size (3 % of a write's
 * CPU when each draw made its own). Node's own `crypto.randomUUID` keeps a pool the same way.
 *
 * Each draw is copied out of the pool and its bytes in the pool are zeroed, so no byte is handed
 * out twice and a used one does not linger; draws larger than the pool come straight from
 * `getRandomValues`.
 */
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"

/** How many bytes one `getRandomValues` call fills. */
const POOL_BYTES = 4096

/** `size` random bytes at a time, from a pool of `poolBytes` refilled when it runs short. */
export const pooledRandomBytes = (poolBytes: number = POOL_BYTES): (size: number) => Uint8Array => {
  const pool = new Uint8Array(poolBytes)
  let offset = poolBytes
  return (size) => {
    if (size > poolBytes) return fillRandom(new Uint8Array(size))
    if (offset + size > poolBytes) {
      globalThis.crypto.getRandomValues(pool)
      offset = 0
    }
    const bytes = pool.slice(offset, offset + size)
    pool.fill(0, offset, offset + size)
    offset += size
    return bytes
  }
}

// `getRandomValues` refuses more than 65,536 bytes at once.
const fillRandom = (bytes: Uint8Array): Uint8Array => {
  for (let at = 0; at < bytes.length; at += 65_536) globalThis.crypto.getRandomValues(bytes.subarray(at, at + 65_536))
  return bytes
}

/** `SecureRandom` from pooled WebCrypto randomness (Node and Deno). */
export const SecureRandomPooled: Layer.Layer<SecureRandom.SecureRandom> = Layer.sync(
  SecureRandom.SecureRandom,
  () => SecureRandom.make(pooledRandomBytes())
)
