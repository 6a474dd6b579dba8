/** A deterministic `SecureRandom` for tests: mulberry32 bytes from a seed (not secure, on purpose). */
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"

/** A fresh byte source: the same seed always yields the same byte stream. */
export const seededBytes = (seed: number): (size: number) => Uint8Array => {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
  return (size) => {
    const out = new Uint8Array(size)
    for (let i = 0; i < size; i++) out[i] = next() & 0xff
    return out
  }
}

export const seededSecureRandom = (seed: number): SecureRandom.SecureRandom["Service"] =>
  SecureRandom.make(seededBytes(seed))

/** A layer building a fresh seeded service each time it is built. */
export const SecureRandomSeeded = (seed: number): Layer.Layer<SecureRandom.SecureRandom> =>
  Layer.sync(SecureRandom.SecureRandom, () => seededSecureRandom(seed))
