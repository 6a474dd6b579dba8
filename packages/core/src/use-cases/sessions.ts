/** First-party login and logout. */
import { Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { CurrentUserReader } from "../account/current-user-reader.ts"
import { UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import { SessionRepository } from "../auth/session-repository.ts"
import type { TokenHasher } from "../auth/token-hasher.ts"
import type { TwoFactorLoginRepository } from "../auth/two-factor-login-repository.ts"
import { invalid, type ValidationFailed } from "../errors.ts"
import { type OpenedSession, openSession } from "./session-open.ts"
import { challengeTwoFactor, type TwoFactorChallenge } from "./two-factor-login.ts"

export { type OpenedSession, SESSION_LIFETIME } from "./session-open.ts"

// The one message of a refused login, whichever part was wrong.
const BAD_CREDENTIALS = "These credentials do not match our records."

/**
 * What {@link login} answers: a session, or, for a user with two-factor authentication on, the
 * challenge that `completeTwoFactorLogin` turns into one.
 */
export type LoginResult = OpenedSession | TwoFactorChallenge

/**
 * First-party login: checks the password and, when the user has no second factor, opens a
 * session in the user's most recently used active account, answering the cookie value (give it
 * back to `authenticateSession`) and the current user. With two-factor authentication on it
 * opens nothing yet and answers a challenge instead (`completeTwoFactorLogin`). Fails
 * {@link ValidationFailed} on `email` with one message for an unknown e-mail, a wrong password or
 * a user without an active membership (an unknown e-mail costs the same hashing work as a wrong
 * password, so timing does not reveal which e-mails exist).
 */
export const login: (
  email: string,
  password: string
) => Effect.Effect<
  LoginResult,
  ValidationFailed,
  | CurrentUserReader
  | PasswordHasher
  | SecureRandom.SecureRandom
  | SessionRepository
  | TokenHasher
  | TwoFactorLoginRepository
  | UserRepository
> = Effect.fn("login")(function*(email: string, password: string) {
  const users = yield* UserRepository
  const hasher = yield* PasswordHasher
  const found = yield* users.findByEmail(email)
  if (Option.isNone(found)) {
    // Spend the same work as a real check so timing does not reveal which e-mails exist.
    yield* hasher.hash(password)
    return yield* invalid("email", BAD_CREDENTIALS)
  }
  if (!(yield* hasher.verify(password, found.value.passwordHash))) {
    return yield* invalid("email", BAD_CREDENTIALS)
  }
  const { user } = found.value
  const membership = (yield* users.listMemberships(user.id))[0]
  if (membership === undefined) return yield* invalid("email", BAD_CREDENTIALS)
  if (user.two_factor_confirmed_at !== null) return yield* challengeTwoFactor(user.id)
  return yield* openSession(membership)
})

/**
 * Logout: ends the session whose cookie hash is `sessionIdHash` (a session principal's
 * `sessionId`); nothing happens when there is none.
 */
export const logout: (sessionIdHash: string) => Effect.Effect<void, never, SessionRepository> = Effect.fn("logout")(
  function*(sessionIdHash: string) {
    yield* (yield* SessionRepository).remove(sessionIdHash)
  }
)
