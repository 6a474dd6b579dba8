/**
 * One-time-password codes.
 *
 * - A managed code is 6 decimal digits drawn from the CSPRNG port (`SecureRandom`) by rejection
 *   sampling, so every code is equally likely.
 * - It is stored only as HMAC-SHA256(server key, verification_id + code): the verification id
 *   salts it, so equal codes hash differently, and without the server key a stolen table cannot be
 *   brute-forced offline over the million codes. Comparison is constant-time.
 */
import { Context, Effect, Layer, Result } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"
import { hmacSha256 } from "../auth/hmac.ts"

/** The digits of a managed code. */
export const MANAGED_CODE_DIGITS = 6

const RANGE = 10 ** MANAGED_CODE_DIGITS
// The largest multiple of RANGE below 2^32: draws at or above it are redrawn (no modulo bias).
const LIMIT = Math.floor(2 ** 32 / RANGE) * RANGE

/** 6 uniformly random digits from the CSPRNG port. */
export const generateOtpCode: Effect.Effect<string, never, SecureRandom.SecureRandom> = Effect.gen(function*() {
  const random = yield* SecureRandom.SecureRandom
  while (true) {
    const bytes = yield* random.randomBytes(4)
    const n = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0
    if (n < LIMIT) return String(n % RANGE).padStart(MANAGED_CODE_DIGITS, "0")
  }
})

/** What the OtpCodeHasher port offers. */
export interface OtpCodeHasherShape {
  /** HMAC-SHA256(key, verificationId + code), lowercase hex. */
  readonly hash: (verificationId: string, code: string) => Effect.Effect<string>
  /** Whether `code` hashes to `stored`, compared in constant time. */
  readonly matches: (verificationId: string, code: string, stored: string) => Effect.Effect<boolean>
}

const OtpCodeHasherBase: Context.ServiceClass<OtpCodeHasher, "@wasl/core/OtpCodeHasher", OtpCodeHasherShape> =
  Context.Service<OtpCodeHasher, OtpCodeHasherShape>()("@wasl/core/OtpCodeHasher")

/** Hashes one-time codes with the server's key, so that a stored code cannot be read back. */
export class OtpCodeHasher extends OtpCodeHasherBase {
  /**
   * HMAC-SHA256 (effect/crypto's `Mac` over Web Crypto, auth/hmac.ts) under `key` (at least 32 bytes:
   * the server's "otp-code" subkey); a shorter key is a defect.
   */
  static readonly layerHmacSha256: (key: Uint8Array) => Layer.Layer<OtpCodeHasher> = (key: Uint8Array) =>
    Layer.effect(
      OtpCodeHasher,
      Effect.gen(function*() {
        if (key.length < 32) return yield* Effect.die(new RangeError("OtpCodeHasher needs a key of at least 32 bytes"))
        const hmac = yield* hmacSha256(key)
        const hash = (verificationId: string, code: string) => Effect.map(hmac(verificationId + code), Hex.encode)
        return OtpCodeHasher.of({
          hash,
          matches: (verificationId, code, stored) =>
            Effect.map(hmac(verificationId + code), (computed) => {
              // A stored hash that is not hex (never written so) matches no code.
              const expected = Hex.decode(stored)
              return Result.isSuccess(expected) && Mac.timingSafeEqual(computed, expected.success)
            })
        })
      })
    )
}
