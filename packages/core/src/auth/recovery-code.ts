/**
 * Recovery codes: single-use codes that complete a two-factor login without the authenticator
 * app (a lost phone). Each is 10 random characters of `a–z0–9` (about 52 bits), shown as two groups
 * of five; only its `TokenHasher` hash is stored. SHA-256 suffices, not a password hash: the
 * codes are random, not chosen by a person, so there is no dictionary to try.
 */
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import { randomFrom } from "../wire/random-string.ts"

/** How many recovery codes turning two-factor on gives: 8. */
export const RECOVERY_CODE_COUNT = 8

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

/** A new recovery code, `xxxxx-xxxxx`. */
export const newRecoveryCode: Effect.Effect<string, never, SecureRandom.SecureRandom> = Effect.map(
  randomFrom(ALPHABET, 10),
  (code) => `${code.slice(0, 5)}-${code.slice(5)}`
)

/** A recovery code as typed, in the form its hash was made of: trimmed, lower case. */
export const normalizeRecoveryCode = (typed: string): string => typed.trim().toLowerCase()
