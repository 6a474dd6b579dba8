/**
 * Time-based one-time passwords (TOTP, RFC 6238), the codes of two-factor authentication: HOTP
 * (RFC 4226) of the 30-second time step, 6 digits, HMAC-SHA1, as every authenticator app makes
 * them by default.
 *
 * Written here rather than taken from a package: TOTP is a few lines over HMAC, and core stays
 * pure Effect with no dependency but `effect`, portable to Node, Deno and browsers; the HMAC is
 * effect/crypto's (hmac.ts). The RFC's test vectors and the `otpauth` package, used as
 * the authenticator, check it.
 */
import { DateTime, Effect, Option } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { hmacSha1 } from "./hmac.ts"
import { encodeBase32 } from "../wire/base32.ts"

/** The length of a time step: 30 seconds. */
export const TOTP_STEP_SECONDS = 30
/** The digits of a code: 6. */
export const TOTP_DIGITS = 6
/**
 * How many steps either side of the current one a code is still taken from: 1, so a code typed
 * as it changes, or on a phone whose clock is a little off, still works.
 */
export const TOTP_WINDOW = 1
/** The bytes of a new secret: 20 (160 bits, RFC 4226's recommendation and SHA-1's output). */
export const TOTP_SECRET_BYTES = 20
/** The issuer authenticator apps show beside the account. */
export const TOTP_ISSUER = "Wasl"

/** The time step `now` falls in: whole {@link TOTP_STEP_SECONDS} since the Unix epoch. */
export const totpStep = (now: DateTime.Utc): number => Math.floor(DateTime.toEpochMillis(now) / (TOTP_STEP_SECONDS * 1000))

/** The HOTP code of `counter` under `secret`, `digits` long (leading zeros kept). */
export const hotp = (secret: Uint8Array, counter: number, digits: number = TOTP_DIGITS): Effect.Effect<string> =>
  Effect.gen(function*() {
    const message = new Uint8Array(8)
    const view = new DataView(message.buffer)
    view.setUint32(0, Math.floor(counter / 2 ** 32))
    view.setUint32(4, counter >>> 0)
    const tag = yield* (yield* hmacSha1(secret))(message)
    // HOTP's dynamic truncation: 31 bits read at the offset the last nibble gives.
    const offset = tag[tag.length - 1]! & 0x0f
    const binary = ((tag[offset]! & 0x7f) << 24) | (tag[offset + 1]! << 16) | (tag[offset + 2]! << 8) | tag[offset + 3]!
    return String(binary % 10 ** digits).padStart(digits, "0")
  })

/**
 * The time step, within {@link TOTP_WINDOW} of `now`'s, whose code under `secret` is `code`; none
 * when there is none. Steps up to `usedUpTo` are passed over, so a code is taken once: a code
 * already used, or one older than it, is refused. Every step of the window is computed and
 * compared in constant time, so the answer's timing does not tell which one matched.
 */
export const matchTotp = (
  secret: Uint8Array,
  code: string,
  now: DateTime.Utc,
  usedUpTo: number | null
): Effect.Effect<Option.Option<number>> =>
  Effect.gen(function*() {
    const wanted = new TextEncoder().encode(code)
    const current = totpStep(now)
    let matched = Option.none<number>()
    for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
      const expected = new TextEncoder().encode(yield* hotp(secret, step))
      const equal = expected.length === wanted.length && Mac.timingSafeEqual(expected, wanted)
      if (equal && (usedUpTo === null || step > usedUpTo) && Option.isNone(matched)) matched = Option.some(step)
    }
    return matched
  })

/** A new secret of {@link TOTP_SECRET_BYTES} random bytes, in Base32 (as the user's app takes it). */
export const newTotpSecret: Effect.Effect<string, never, SecureRandom.SecureRandom> = Effect.gen(function*() {
  const random = yield* SecureRandom.SecureRandom
  return encodeBase32(yield* random.randomBytes(TOTP_SECRET_BYTES))
})

/**
 * The `otpauth://totp/` URI an authenticator app reads (usually from a QR code): issuer
 * {@link TOTP_ISSUER}, the label `Wasl:<email>`, and the algorithm, digits and period spelled out.
 */
export const otpauthUri = (secret: string, email: string): string =>
  `otpauth://totp/${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(email)}?` +
  new URLSearchParams({
    secret,
    issuer: TOTP_ISSUER,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS)
  }).toString()
