/**
 * Two-factor authentication of the calling user: enrolment (a new TOTP secret), confirmation with
 * a code from the authenticator app (turning it on, with recovery codes), and turning it off.
 */
import { DateTime, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import { UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import { newRecoveryCode, RECOVERY_CODE_COUNT } from "../auth/recovery-code.ts"
import { SecretBox } from "../auth/secret-box.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { matchTotp, newTotpSecret, otpauthUri } from "../auth/totp.ts"
import { TwoFactorRepository } from "../auth/two-factor-repository.ts"
import { invalid, Unauthenticated, type ValidationFailed } from "../errors.ts"
import { decodeBase32 } from "../wire/base32.ts"

/** The message of a wrong authenticator code. */
export const INVALID_TWO_FACTOR_CODE = "The code is invalid."
const ALREADY_ON = "Two-factor authentication is already on: turn it off first."
const NOT_STARTED = "Start the two-factor enrolment first."
const WRONG_PASSWORD = "The password is incorrect."

/** What {@link beginTwoFactor} answers: the new secret, in Base32 and as the URI an authenticator app reads. */
export interface TwoFactorEnrolment {
  /** The TOTP secret in Base32, for typing into the app. */
  readonly secret: string
  /** The `otpauth://totp/` URI (usually shown as a QR code). */
  readonly otpauth_uri: string
}

/**
 * The TOTP secret the {@link SecretBox} sealed. One that does not open means the box's key
 * changed under stored data: a broken deployment, not a client error.
 */
export const openTotpSecret = (sealed: string): Effect.Effect<Uint8Array, never, SecretBox> =>
  Effect.gen(function*() {
    const secret = Option.flatMapNullishOr(yield* (yield* SecretBox).open(sealed), decodeBase32)
    if (Option.isNone(secret)) {
      return yield* Effect.die(new Error("a stored two-factor secret does not open with the secret-box key"))
    }
    return secret.value
  })

/**
 * Starts enrolment: a new secret, stored sealed and not yet on (`confirmTwoFactor` turns it on),
 * in place of any unconfirmed one. The URI names issuer Wasl and the user's e-mail. Fails
 * {@link ValidationFailed} on `two_factor` when two-factor is already on, {@link Unauthenticated}
 * when the user is gone.
 */
export const beginTwoFactor: (
  userId: number
) => Effect.Effect<
  TwoFactorEnrolment,
  ValidationFailed | Unauthenticated,
  SecretBox | SecureRandom.SecureRandom | TwoFactorRepository | UserRepository
> = Effect.fn("beginTwoFactor")(function*(userId: number) {
  const user = yield* (yield* UserRepository).findById(userId)
  if (Option.isNone(user)) return yield* new Unauthenticated()
  const secret = yield* newTotpSecret
  const sealed = yield* (yield* SecretBox).seal(secret)
  if (!(yield* (yield* TwoFactorRepository).begin(userId, sealed))) return yield* invalid("two_factor", ALREADY_ON)
  return { secret, otpauth_uri: otpauthUri(secret, user.value.email) }
})

/**
 * Turns two-factor on with a code of the enrolled secret (its time step counts as used), and
 * answers {@link RECOVERY_CODE_COUNT} new recovery codes: this once, only their hashes are kept.
 * Fails {@link ValidationFailed} on `code` for a wrong code, with no enrolment begun, or when
 * two-factor is already on.
 */
export const confirmTwoFactor: (
  userId: number,
  code: string
) => Effect.Effect<
  ReadonlyArray<string>,
  ValidationFailed,
  SecretBox | SecureRandom.SecureRandom | TokenHasher | TwoFactorRepository
> = Effect.fn("confirmTwoFactor")(function*(userId: number, code: string) {
  const repository = yield* TwoFactorRepository
  const state = yield* repository.find(userId)
  if (Option.isNone(state) || state.value.sealedSecret === null) return yield* invalid("code", NOT_STARTED)
  if (state.value.confirmedAt !== null) return yield* invalid("code", ALREADY_ON)
  const { sealedSecret, lastUsedStep } = state.value
  const now = yield* DateTime.now
  const step = yield* matchTotp(yield* openTotpSecret(sealedSecret), code, now, lastUsedStep)
  if (Option.isNone(step)) return yield* invalid("code", INVALID_TWO_FACTOR_CODE)
  const codes = yield* Effect.replicateEffect(newRecoveryCode, RECOVERY_CODE_COUNT)
  const hasher = yield* TokenHasher
  const recoveryCodeHashes = yield* Effect.forEach(codes, (recovery) => hasher.hash(recovery))
  const confirmed = yield* repository.confirm(userId, { sealedSecret, confirmedAt: now, step: step.value, recoveryCodeHashes })
  // Another enrolment or confirmation came between the read and the write: this code was for a secret no longer current.
  if (!confirmed) return yield* invalid("code", INVALID_TWO_FACTOR_CODE)
  return codes
})

/**
 * Turns two-factor off (or drops an unconfirmed enrolment), given the user's password. Fails
 * {@link ValidationFailed} on `password` for a wrong one.
 */
export const disableTwoFactor: (
  userId: number,
  password: string
) => Effect.Effect<void, ValidationFailed, PasswordHasher | TwoFactorRepository | UserRepository> = Effect.fn(
  "disableTwoFactor"
)(function*(userId: number, password: string) {
  const stored = yield* (yield* UserRepository).findPasswordHash(userId)
  const hasher = yield* PasswordHasher
  if (Option.isNone(stored) || !(yield* hasher.verify(password, stored.value))) {
    return yield* invalid("password", WRONG_PASSWORD)
  }
  yield* (yield* TwoFactorRepository).disable(userId)
})
