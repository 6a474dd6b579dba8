/**
 * The second step of a login with two-factor authentication on: the password step answers a
 * challenge (a random value the client keeps, only its hash stored), which a code of the user's
 * authenticator app or one of their recovery codes turns into a session.
 */
import { DateTime, Duration, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { CurrentUserReader } from "../account/current-user-reader.ts"
import { UserRepository } from "../account/user-repository.ts"
import { normalizeRecoveryCode } from "../auth/recovery-code.ts"
import type { SecretBox } from "../auth/secret-box.ts"
import type { SessionRepository } from "../auth/session-repository.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { matchTotp } from "../auth/totp.ts"
import { TwoFactorLoginRepository } from "../auth/two-factor-login-repository.ts"
import { TwoFactorRepository } from "../auth/two-factor-repository.ts"
import { invalid, type ValidationFailed } from "../errors.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { type OpenedSession, openSession } from "./session-open.ts"
import { INVALID_TWO_FACTOR_CODE, openTotpSecret } from "./two-factor.ts"

/** How long the second step may come after the password: 5 minutes. */
export const TWO_FACTOR_LOGIN_LIFETIME: Duration.Duration = Duration.minutes(5)
/** The attempts one pending login allows, right or wrong: 5. Then the password is asked again. */
export const TWO_FACTOR_LOGIN_ATTEMPTS = 5
const CHALLENGE_LENGTH = 40

const EXPIRED = "The login has expired or had too many attempts: log in again."
const INVALID_RECOVERY_CODE = "The recovery code is invalid."

/** What `login` answers for a user with two-factor on: no session yet. */
export interface TwoFactorChallenge {
  /** Tells it from an `OpenedSession` among `login`'s answers. */
  readonly _tag: "TwoFactorRequired"
  /** The value the client gives back to {@link completeTwoFactorLogin} (only its hash is stored). */
  readonly challenge: string
}

/** The second factor: a code of the authenticator app, or an unused recovery code. */
export type SecondFactor = { readonly code: string } | { readonly recoveryCode: string }

/** A pending login of {@link TWO_FACTOR_LOGIN_LIFETIME} for the user, whose password was right. */
export const challengeTwoFactor = (
  userId: number
): Effect.Effect<TwoFactorChallenge, never, SecureRandom.SecureRandom | TokenHasher | TwoFactorLoginRepository> =>
  Effect.gen(function*() {
    const challenge = yield* randomAlphanumeric(CHALLENGE_LENGTH)
    const idHash = yield* (yield* TokenHasher).hash(challenge)
    const now = yield* DateTime.now
    yield* (yield* TwoFactorLoginRepository).create({
      idHash,
      userId,
      expiresAt: DateTime.addDuration(now, TWO_FACTOR_LOGIN_LIFETIME)
    })
    return { _tag: "TwoFactorRequired", challenge } as const
  })

/**
 * Completes a login: with a code of the user's authenticator app (within one time step of now,
 * and of a step later than any code used before) or an unused recovery code (then used up), it
 * opens the session `login` would have, in the user's most recently used active account. Each
 * attempt counts, and {@link TWO_FACTOR_LOGIN_ATTEMPTS} end the pending login, as its
 * expiry does. Fails {@link ValidationFailed} on `code` (or `recovery_code`) for a wrong one and
 * for a challenge that is unknown, expired or out of attempts.
 */
export const completeTwoFactorLogin: (
  challenge: string,
  factor: SecondFactor
) => Effect.Effect<
  OpenedSession,
  ValidationFailed,
  | CurrentUserReader
  | SecretBox
  | SecureRandom.SecureRandom
  | SessionRepository
  | TokenHasher
  | TwoFactorLoginRepository
  | TwoFactorRepository
  | UserRepository
> = Effect.fn("completeTwoFactorLogin")(function*(challenge: string, factor: SecondFactor) {
  const field = "code" in factor ? "code" : "recovery_code"
  const hasher = yield* TokenHasher
  const logins = yield* TwoFactorLoginRepository
  const idHash = yield* hasher.hash(challenge)
  const pending = yield* logins.claimAttempt(idHash, TWO_FACTOR_LOGIN_ATTEMPTS)
  if (Option.isNone(pending)) return yield* invalid(field, EXPIRED)
  const now = yield* DateTime.now
  const { userId, expiresAt } = pending.value
  const repository = yield* TwoFactorRepository
  const state = yield* repository.find(userId)
  // Turned off since the password step: that login is over too, not let in without a factor.
  if (DateTime.isLessThanOrEqualTo(expiresAt, now) || Option.isNone(state) || state.value.sealedSecret === null ||
    state.value.confirmedAt === null) {
    yield* logins.remove(idHash)
    return yield* invalid(field, EXPIRED)
  }
  if ("code" in factor) {
    const secret = yield* openTotpSecret(state.value.sealedSecret)
    const step = yield* matchTotp(secret, factor.code, now, state.value.lastUsedStep)
    if (Option.isNone(step) || !(yield* repository.useStep(userId, step.value))) {
      return yield* invalid(field, INVALID_TWO_FACTOR_CODE)
    }
  } else {
    const codeHash = yield* hasher.hash(normalizeRecoveryCode(factor.recoveryCode))
    if (!(yield* repository.useRecoveryCode(userId, codeHash))) return yield* invalid(field, INVALID_RECOVERY_CODE)
  }
  yield* logins.remove(idHash)
  const membership = (yield* (yield* UserRepository).listMemberships(userId))[0]
  // The user lost every membership since the password step: nothing to open a session in.
  if (membership === undefined) return yield* invalid(field, EXPIRED)
  return yield* openSession(membership)
})
