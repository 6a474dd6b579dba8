/** Opening a first-party session, the last step of every login (with or without a second factor). */
import { DateTime, Duration, Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Membership } from "../account/account.ts"
import type { CurrentUser } from "../account/current-user.ts"
import type { CurrentUserReader } from "../account/current-user-reader.ts"
import { UserRepository } from "../account/user-repository.ts"
import { SessionRepository } from "../auth/session-repository.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { currentUser } from "./current-user.ts"

/** How long a session lasts after login: 14 days. */
export const SESSION_LIFETIME: Duration.Duration = Duration.days(14)
const SESSION_SECRET_LENGTH = 40

/** A session opened by a login: the session cookie's value and the user, as `GET /api/me` shows it. */
export interface OpenedSession {
  /** Tells it from a `TwoFactorChallenge` among `login`'s answers. */
  readonly _tag: "Session"
  /** The value of the `wasl_session` cookie (only its hash is stored). */
  readonly cookie: string
  /** The user in the session's account. */
  readonly user: CurrentUser
}

/**
 * Opens a session of {@link SESSION_LIFETIME} in the membership's account (the user's most
 * recently used active one) and marks the membership used.
 */
export const openSession = (
  membership: Membership
): Effect.Effect<
  OpenedSession,
  never,
  CurrentUserReader | SecureRandom.SecureRandom | SessionRepository | TokenHasher | UserRepository
> =>
  Effect.gen(function*() {
    const cookie = yield* randomAlphanumeric(SESSION_SECRET_LENGTH)
    const idHash = yield* (yield* TokenHasher).hash(cookie)
    const now = yield* DateTime.now
    yield* (yield* SessionRepository).create({
      idHash,
      accountId: membership.account_id,
      userId: membership.user_id,
      expiresAt: DateTime.addDuration(now, SESSION_LIFETIME)
    })
    yield* (yield* UserRepository).touchMembership(membership.account_id, membership.user_id)
    // The membership was just read, so a missing piece here is a broken invariant, not a client error.
    const user = yield* Effect.orDie(currentUser({ accountId: membership.account_id, userId: membership.user_id }))
    return { _tag: "Session", cookie, user } as const
  })
