/** First-party login and logout (decisions §2). */
import { DateTime, Duration, Effect, Option } from "effect"
import { UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import { SessionRepository } from "../auth/session-repository.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { invalid } from "../errors.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { currentUser } from "./current-user.ts"

export const SESSION_LIFETIME = Duration.days(14)
const SESSION_SECRET_LENGTH = 40
const BAD_CREDENTIALS = "These credentials do not match our records."

/** Check the password and open a session in the user's most recently used active account. */
export const login = Effect.fn("login")(function*(email: string, password: string) {
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

export const logout = Effect.fn("logout")(function*(sessionIdHash: string) {
  yield* (yield* SessionRepository).remove(sessionIdHash)
})
