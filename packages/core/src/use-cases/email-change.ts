/**
 * Changing a user's login e-mail, and verifying it, through single-use links mailed to the
 * address concerned. Only the SHA-256 of a link's token is stored; following a link takes its
 * token (a second use finds nothing), and only a user's latest link of each kind works.
 *
 * - A change (`requestEmailChange`) sets `change_email_to` and mails a link to the NEW address,
 *   valid {@link EMAIL_CHANGE_LIFETIME}; following it (`confirmEmailChange`) makes that address
 *   the login e-mail, verified (the link reached it).
 * - A verification (`sendEmailVerification`, also what an accepted invitation calls) mails a link
 *   to the current address, valid {@link EMAIL_VERIFICATION_LIFETIME}; following it
 *   (`confirmEmailVerification`) sets `email_verified_at`.
 */
import { DateTime, Duration, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import { EmailTokenRepository, type EmailTokenPurpose } from "../account/email-token-repository.ts"
import type { User } from "../account/user.ts"
import { UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import type { Principal } from "../auth/principal.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { invalid, ServiceUnavailable, Unauthenticated, type ValidationFailed } from "../errors.ts"
import { Mailer } from "../mail/mailer.ts"
import { publicLink } from "../public-url.ts"
import { isEmail } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"

/** How long a link to confirm a new e-mail address works: 24 hours. */
export const EMAIL_CHANGE_LIFETIME: Duration.Duration = Duration.hours(24)
/** How long a link to verify an e-mail address works: 7 days (as long as an invitation). */
export const EMAIL_VERIFICATION_LIFETIME: Duration.Duration = Duration.days(7)
/** The dashboard page a change link opens (it posts the token to `POST /api/me/email/confirm`). */
export const EMAIL_CHANGE_PATH = "/email/confirm"
/** The dashboard page a verification link opens (it posts the token to `POST /api/me/email/verify/confirm`). */
export const EMAIL_VERIFICATION_PATH = "/email/verify"
/** The 422 message on `token` for a link that is unknown, used, superseded or expired. */
export const EMAIL_LINK_INVALID = "This link is invalid or has expired."
/** The 422 message on `email` when the taken address is the caller's own. */
export const EMAIL_UNCHANGED = "The email field must be different from your current email."
/** The 422 message on `email` when another user already signs in with the address. */
export const EMAIL_TAKEN_MESSAGE = "The email has already been taken."

const TOKEN_LENGTH = 40
const MAIL_RETRY_AFTER_SECONDS = 60

/** Mails a fresh link of `purpose` for `email` to that address, storing only its token's hash. */
const mailLink = (
  userId: number,
  purpose: EmailTokenPurpose,
  email: string,
  before: Effect.Effect<void, never, UserRepository>
) =>
  Effect.gen(function*() {
    const token = yield* randomAlphanumeric(TOKEN_LENGTH)
    const tokenHash = yield* (yield* TokenHasher).hash(token)
    const now = yield* DateTime.now
    const lifetime = purpose === "change" ? EMAIL_CHANGE_LIFETIME : EMAIL_VERIFICATION_LIFETIME
    const tokens = yield* EmailTokenRepository
    yield* (yield* Transactor).transaction(Effect.gen(function*() {
      yield* before
      yield* tokens.create({ tokenHash, userId, purpose, email, expiresAt: DateTime.addDuration(now, lifetime) })
    }))
    const link = yield* publicLink(`${purpose === "change" ? EMAIL_CHANGE_PATH : EMAIL_VERIFICATION_PATH}?token=${token}`)
    const hours = Duration.toHours(lifetime)
    const mail = purpose === "change"
      ? {
        subject: "Confirm your new e-mail address",
        text: `Someone (we hope you) asked to sign in to Wasl with this address from now on.\n\n` +
          `Open this link to confirm it (it works once, for ${hours} hours):\n${link}\n\n` +
          `If you did not ask for this, ignore this mail: nothing changes.\n`
      }
      : {
        subject: "Verify your e-mail address",
        text: `Open this link to verify the e-mail address of your Wasl account ` +
          `(it works once, for ${hours / 24} days):\n${link}\n`
      }
    yield* (yield* Mailer).send({ to: email, ...mail }).pipe(
      Effect.mapError(() =>
        new ServiceUnavailable({ message: "The mail could not be sent. Try again later.", retryAfter: MAIL_RETRY_AFTER_SECONDS })
      )
    )
  })

/** The token of a live link of `purpose` (taken: it works once), or ValidationFailed on `token`. */
const takeLink = (token: string, purpose: EmailTokenPurpose) =>
  Effect.gen(function*() {
    const tokenHash = yield* (yield* TokenHasher).hash(token)
    const taken = yield* (yield* EmailTokenRepository).take(tokenHash, purpose)
    const now = yield* DateTime.now
    if (Option.isNone(taken) || DateTime.isGreaterThanOrEqualTo(now, taken.value.expiresAt)) {
      return yield* invalid("token", EMAIL_LINK_INVALID)
    }
    return { ...taken.value, now }
  })

/**
 * `PUT /api/me/email`: asks to change the caller's login e-mail to `email`. Sets the user's
 * `change_email_to` and mails a confirmation link to the new address (valid
 * {@link EMAIL_CHANGE_LIFETIME}; an earlier one stops working); the e-mail changes only when the
 * link is followed (`confirmEmailChange`). A session must give the current password (a stolen
 * cookie alone does not move the account to another mailbox); a token may, and it is checked when
 * given. Fails {@link ValidationFailed} on `email` (not an address, the current one, or another
 * user's) or `password`, and {@link ServiceUnavailable} when the mail cannot be sent. Answers the
 * user as now stored.
 */
export const requestEmailChange: (
  principal: Pick<Principal, "kind" | "userId">,
  email: string,
  password: string | undefined
) => Effect.Effect<
  User,
  ValidationFailed | ServiceUnavailable | Unauthenticated,
  EmailTokenRepository | Mailer | PasswordHasher | SecureRandom.SecureRandom | TokenHasher | Transactor | UserRepository
> = Effect.fn("requestEmailChange")(function*(
  principal: Pick<Principal, "kind" | "userId">,
  email: string,
  password: string | undefined
) {
  const users = yield* UserRepository
  const user = yield* users.findById(principal.userId)
  if (Option.isNone(user)) return yield* new Unauthenticated()
  const wanted = laravelTrim(email)
  if (wanted === "") return yield* invalid("email", LaravelMessage.required("email"))
  if (!isEmail(wanted)) return yield* invalid("email", LaravelMessageMore.email("email"))
  if (wanted.toLowerCase() === user.value.email.toLowerCase()) return yield* invalid("email", EMAIL_UNCHANGED)
  if (password === undefined && principal.kind === "session") {
    return yield* invalid("password", LaravelMessage.required("password"))
  }
  if (password !== undefined) {
    const stored = yield* users.findPasswordHash(principal.userId)
    if (Option.isNone(stored) || !(yield* (yield* PasswordHasher).verify(password, stored.value))) {
      return yield* invalid("password", "The password is incorrect.")
    }
  }
  const taken = yield* users.findByEmail(wanted)
  if (Option.isSome(taken)) return yield* invalid("email", EMAIL_TAKEN_MESSAGE)
  yield* mailLink(principal.userId, "change", wanted, users.setChangeEmailTo(principal.userId, wanted))
  return Option.getOrThrow(yield* users.findById(principal.userId))
})

/**
 * `POST /api/me/email/confirm`: follows a change link. Makes the address it was sent to the
 * user's login e-mail, verified now, and clears `change_email_to`; answers the user. The token is
 * the proof (it reached the new mailbox), so no sign-in is needed. Fails {@link ValidationFailed}
 * on `token` for an unknown, used, superseded or expired link, and on `email` when another user
 * took the address meanwhile.
 */
export const confirmEmailChange: (
  token: string
) => Effect.Effect<User, ValidationFailed, EmailTokenRepository | TokenHasher | UserRepository> = Effect.fn(
  "confirmEmailChange"
)(function*(token: string) {
  const link = yield* takeLink(token, "change")
  const changed = yield* (yield* UserRepository).setEmail(link.userId, link.email, link.now)
  if (Option.isNone(changed)) return yield* invalid("token", EMAIL_LINK_INVALID)
  return changed.value
})

/**
 * Mails the user a link to verify their current e-mail (valid {@link EMAIL_VERIFICATION_LIFETIME};
 * an earlier one stops working), unless it is verified already; answers whether a link was sent.
 * What `POST /api/me/email/verify` calls for the caller, and what accepting an invitation calls
 * for the user it made. Fails {@link ServiceUnavailable} when the mail cannot be sent.
 */
export const sendEmailVerification: (
  userId: number
) => Effect.Effect<
  boolean,
  ServiceUnavailable | Unauthenticated,
  EmailTokenRepository | Mailer | SecureRandom.SecureRandom | TokenHasher | Transactor | UserRepository
> = Effect.fn("sendEmailVerification")(function*(userId: number) {
  const user = yield* (yield* UserRepository).findById(userId)
  if (Option.isNone(user)) return yield* new Unauthenticated()
  if (user.value.email_verified_at !== null) return false
  yield* mailLink(userId, "verify", user.value.email, Effect.void)
  return true
})

/**
 * `POST /api/me/email/verify/confirm`: follows a verification link, setting the user's
 * `email_verified_at`; answers the user. No sign-in is needed (the token is the proof). Fails
 * {@link ValidationFailed} on `token` for an unknown, used, superseded or expired link, or one
 * sent to an address the user no longer has.
 */
export const confirmEmailVerification: (
  token: string
) => Effect.Effect<User, ValidationFailed, EmailTokenRepository | TokenHasher | UserRepository> = Effect.fn(
  "confirmEmailVerification"
)(function*(token: string) {
  const link = yield* takeLink(token, "verify")
  const users = yield* UserRepository
  if (!(yield* users.markEmailVerified(link.userId, link.email, link.now))) return yield* invalid("token", EMAIL_LINK_INVALID)
  return Option.getOrThrow(yield* users.findById(link.userId))
})
