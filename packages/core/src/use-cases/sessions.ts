/** First-party login and logout. */
import { DateTime, Duration, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { CurrentUser } from "../account/current-user.ts"
import type { CurrentUserReader } from "../account/current-user-reader.ts"
import { UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import { SessionRepository } from "../auth/session-repository.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { invalid, type ValidationFailed } from "../errors.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { currentUser } from "./current-user.ts"

/** How long a session lasts after login: 14 days. */
export const SESSION_LIFETIME: Duration.Duration = Duration.days(14)
const SESSION_SECRET_LENGTH = 40
const BAD_CREDENTIALS = "These credentials do not match our records."

/** What {@link login} answers: the session cookie's value and the user, as `GET /api/me` shows it. */
export interface LoginResult {
  /** The value of the `wasl_session` cookie (only its hash is stored). */
  readonly cookie: string
  /** The user in the session's account. */
  readonly user: CurrentUser
}

/**
 * First-party login: checks the password and opens a session of {@link SESSION_LIFETIME} in the
 * user's most recently used active account. Answers the cookie value (give it back to
 * `authenticateSession`) and the current user. Fails {@link ValidationFailed} on `email` with one
 * message for an unknown e-mail, a wrong password or a user without an active membership (an
 * unknown e-mail costs the same hashing work as a wrong password, so timing does not reveal which
 * e-mails exist).
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
  const userId = found.value.user.id
  const membership = (yield* users.listMemberships(userId))[0]
  if (membership === undefined) return yield* invalid("email", BAD_CREDENTIALS)
  const cookie = yield* randomAlphanumeric(SESSION_SECRET_LENGTH)
  const idHash = yield* (yield* TokenHasher).hash(cookie)
  const now = yield* DateTime.now
  yield* (yield* SessionRepository).create({
    idHash,
    accountId: membership.account_id,
    userId,
    expiresAt: DateTime.addDuration(now, SESSION_LIFETIME)
  })
  yield* users.touchMembership(membership.account_id, userId)
  // The membership was just read, so a missing piece here is a broken invariant, not a client error.
  const user = yield* Effect.orDie(currentUser({ accountId: membership.account_id, userId }))
  return { cookie, user }
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
