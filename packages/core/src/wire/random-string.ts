import { Effect } from "effect"
import { SecureRandom } from "effect/crypto"

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

/** `length` characters drawn uniformly from `alphabet` by a CSPRNG. */
export const randomFrom = (
  alphabet: string,
  length: number
): Effect.Effect<string, never, SecureRandom.SecureRandom> =>
  Effect.gen(function*() {
    const random = yield* SecureRandom.SecureRandom
    let out = ""
    for (let i = 0; i < length; i++) {
      out += alphabet[yield* random.intBetween(0, alphabet.length, { halfOpen: true })]
    }
    return out
  })

/** `length` characters drawn uniformly from [A-Za-z0-9] by a CSPRNG. */
export const randomAlphanumeric = (length: number): Effect.Effect<string, never, SecureRandom.SecureRandom> =>
  randomFrom(ALPHANUMERIC, length)
