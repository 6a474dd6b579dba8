/** The current user, as `GET /api/me` returns it. */
import { Effect, Option } from "effect"
import { AccountRepository } from "../account/account-repository.ts"
import type { CurrentUser } from "../account/current-user.ts"
import { NotificationRepository } from "../account/notification-repository.ts"
import { TeamRepository } from "../account/team-repository.ts"
import { withDefaultPreferences } from "../account/user.ts"
import { UserRepository } from "../account/user-repository.ts"
import type { Principal } from "../auth/principal.ts"
import { Unauthenticated } from "../errors.ts"

/**
 * The caller as `GET /api/me` returns it: the user, the current account with the caller's
 * membership and the subscription, the notification preferences (defaults included), the user's
 * teams in the account and the unread notifications count. Any authenticated caller, for itself.
 * Fails {@link Unauthenticated} when the user, the account or the membership is gone.
 */
export const currentUser: (
  principal: Pick<Principal, "accountId" | "userId">
) => Effect.Effect<
  CurrentUser,
  Unauthenticated,
  AccountRepository | NotificationRepository | TeamRepository | UserRepository
> = Effect.fn("currentUser")(function*(principal: Pick<Principal, "accountId" | "userId">) {
  const { accountId, userId } = principal
  const users = yield* UserRepository
  const accounts = yield* AccountRepository
  const notifications = yield* NotificationRepository
  const [user, account, membership, teams, preferences, unread] = yield* Effect.all([
    users.findById(userId),
    accounts.findById(accountId),
    users.findMembership(accountId, userId),
    (yield* TeamRepository).listForUser(accountId, userId),
    notifications.listPreferences(accountId, userId),
    notifications.unreadCount(accountId, userId)
  ], { concurrency: 1 })
  if (Option.isNone(user) || Option.isNone(account) || Option.isNone(membership)) {
    return yield* new Unauthenticated()
  }
  // Every account has its subscription; a missing one is a broken invariant.
  const subscription = yield* Effect.orDie(accounts.subscription(accountId))
  const { webhook_limit: _internal, ...accountView } = account.value
  return {
    ...user.value,
    account: { ...accountView, pivot: membership.value, subscription },
    notification_preferences: withDefaultPreferences(preferences),
    teams,
    unread_notifications_count: unread,
    has2FA: false
  } satisfies CurrentUser as CurrentUser
})
