/**
 * Webhook signatures and the validation challenge (HMAC-SHA256 of auth/hmac.ts).
 *
 * - A delivery is signed with HMAC-SHA256(secret, `<timestamp>:<raw body>`), written
 *   `sha256=<lowercase hex>`. The body is hashed as the exact UTF-8 bytes sent.
 * - The challenge answer is `sha256=` + HMAC-SHA256(secret, challenge).
 * Known answers (test vectors) are checked by the core test suite.
 */
import { Effect, Predicate } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"
import { ownValue } from "../records/body-input.ts"
import { hmacSha256 } from "../auth/hmac.ts"

/** The header names of a delivery and of the challenge, all prefixed `X-Wasl`. */
export const WEBHOOK_HEADERS = {
  event: "X-Wasl-Event",
  delivery: "X-Wasl-Delivery",
  timestamp: "X-Wasl-Timestamp",
  signature: "X-Wasl-Signature"
} as const

/** What every signature and challenge answer begins with, before the lowercase hex HMAC. */
export const SIGNATURE_PREFIX = "sha256="

/** The event name the validation challenge carries. */
export const VALIDATION_EVENT = "webhook-validation"

const CHALLENGE_BYTES = 32

/** Lowercase hex HMAC-SHA256 of `message` keyed with `secret` (both as UTF-8). */
export const hmacSha256Hex = (secret: string, message: string): Effect.Effect<string> =>
  Effect.flatMap(hmacSha256(new TextEncoder().encode(secret)), (hmac) => Effect.map(hmac(message), Hex.encode))

/** `X-Wasl-Signature` of one attempt: over `<timestamp>:<body>`, the body exactly as sent. */
export const signDelivery = (secret: string, timestamp: string, body: string): Effect.Effect<string> =>
  Effect.map(hmacSha256Hex(secret, `${timestamp}:${body}`), (hex) => `${SIGNATURE_PREFIX}${hex}`)

/** The answer an endpoint must return for `challenge`: `sha256=` + HMAC(secret, challenge). */
export const challengeAnswer = (secret: string, challenge: string): Effect.Effect<string> =>
  Effect.map(hmacSha256Hex(secret, challenge), (hex) => `${SIGNATURE_PREFIX}${hex}`)

/** A fresh challenge: 64 lowercase hex characters from a CSPRNG. */
export const newChallenge: Effect.Effect<string, never, SecureRandom.SecureRandom> = Effect.gen(function*() {
  const random = yield* SecureRandom.SecureRandom
  return Hex.encode(yield* random.randomBytes(CHALLENGE_BYTES))
})

/**
 * Compares two strings in time independent of where they differ, so that a signature check
 * does not tell an attacker how much of a guess was right: effect/crypto's `Mac.timingSafeEqual`
 * over their UTF-8 bytes. The length is not secret (every signature has the same length), so
 * unequal lengths answer at once. The strings compared are signatures and challenge answers,
 * whose form (`sha256=` + lowercase hex) is part of the check, so they are not decoded first.
 */
export const constantTimeEqual = (a: string, b: string): boolean =>
  Mac.timingSafeEqual(new TextEncoder().encode(a), new TextEncoder().encode(b))

/** Whether `signature` is the right one for `<timestamp>:<body>` (what a receiver checks). */
export const verifyDelivery = (secret: string, timestamp: string, body: string, signature: string): Effect.Effect<boolean> =>
  Effect.map(signDelivery(secret, timestamp, body), (expected) => constantTimeEqual(expected, signature))

/** The `time` key of a delivery or challenge body: Unix seconds with the fraction. */
export const eventTime = (epochMillis: number): number => epochMillis / 1000

/**
 * The string at `key` of a JSON object text (the challenge of a validation request, the
 * `signature` of its answer); undefined when the text is not such an object.
 */
export const jsonStringField = (text: string, key: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(text)
    const value = Predicate.isObject(parsed) && !Array.isArray(parsed) ? ownValue(parsed, key) : undefined
    return typeof value === "string" ? value : undefined
  } catch {
    return undefined
  }
}
