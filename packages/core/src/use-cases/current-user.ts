/** The current user, as `GET /api/me` returns it. */
import { DateTime, Effect, Option } from "effect"
import type { CurrentUser } from "../account/current-user.ts"
import { CurrentUserReader } from "../account/current-user-reader.ts"
import { messageAllowanceAt } from "../account/message-allowance.ts"
import { withDefaultPreferences } from "../account/user.ts"
import type { Principal } from "../auth/principal.ts"
import { Unauthenticated } from "../errors.ts"

/**
 * The caller as `GET /api/me` returns it: the user, the current account with the caller's
 * membership, the subscription and the month's message allowance, the user's chosen views there, the notification preferences (defaults included), the user's
 * teams in the account, the unread notifications count and whether two-factor authentication is on. Any authenticated caller, for itself.
 * Fails {@link Unauthenticated} when the user, the account or the membership is gone.
 */
export const currentUser: (
  principal: Pick<Principal, "accountId" | "userId">
) => Effect.Effect<CurrentUser, Unauthenticated, CurrentUserReader> = Effect.fn("currentUser")(
  function*(principal: Pick<Principal, "accountId" | "userId">) {
    const parts = yield* (yield* CurrentUserReader).read(principal.accountId, principal.userId)
    if (Option.isNone(parts)) return yield* new Unauthenticated()
    const { user, account, membership, teams, preferences, unreadCount, subscription, messageAllowance, views } = parts.value
    // Every account has its subscription; a missing one is a broken invariant.
    if (Option.isNone(subscription)) {
      return yield* Effect.die(new Error(`account ${principal.accountId} has no subscription`))
    }
    const { webhook_limit: _internal, ...accountView } = account
    return {
      ...user,
      // The chosen views are the member's in the current account, where the views live.
      contacts_view_id: views.contact,
      deals_view_id: views.deal,
      tickets_view_id: views.ticket,
      account: {
        ...accountView,
        pivot: membership,
        subscription: subscription.value,
        message_allowance: messageAllowanceAt(account.plan, messageAllowance, yield* DateTime.now)
      },
      notification_preferences: withDefaultPreferences(preferences),
      teams,
      unread_notifications_count: unreadCount,
      has2FA: user.two_factor_confirmed_at !== null
    } satisfies CurrentUser as CurrentUser
  }
)
