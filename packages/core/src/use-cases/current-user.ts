/** The current user, as `GET /api/me` returns it. */
import { Effect, Option } from "effect"
import type { CurrentUser } from "../account/current-user.ts"
import { CurrentUserReader } from "../account/current-user-reader.ts"
import type { MessageAllowanceLedger } from "../account/message-allowance-ledger.ts"
import { withDefaultPreferences } from "../account/user.ts"
import type { Principal } from "../auth/principal.ts"
import { Unauthenticated } from "../errors.ts"
import { messageAllowanceOf } from "./message-allowance.ts"

/**
 * The caller as `GET /api/me` returns it: the user, the current account with the caller's
 * membership and the subscription, the notification preferences (defaults included), the user's
 * teams in the account, the unread notifications count and whether two-factor authentication is on. Any authenticated caller, for itself.
 * Fails {@link Unauthenticated} when the user, the account or the membership is gone.
 */
export const currentUser: (
  principal: Pick<Principal, "accountId" | "userId">
) => Effect.Effect<CurrentUser, Unauthenticated, CurrentUserReader | MessageAllowanceLedger> = Effect.fn("currentUser")(
  function*(principal: Pick<Principal, "accountId" | "userId">) {
    const parts = yield* (yield* CurrentUserReader).read(principal.accountId, principal.userId)
    if (Option.isNone(parts)) return yield* new Unauthenticated()
    const { user, account, membership, teams, preferences, unreadCount, subscription } = parts.value
    // Every account has its subscription; a missing one is a broken invariant.
    if (Option.isNone(subscription)) {
      return yield* Effect.die(new Error(`account ${principal.accountId} has no subscription`))
    }
    const { webhook_limit: _internal, ...accountView } = account
    return {
      ...user,
      account: {
        ...accountView,
        pivot: membership,
        subscription: subscription.value,
        // Read apart from the kept parts: the count moves with every send.
        message_allowance: yield* messageAllowanceOf(principal.accountId)
      },
      notification_preferences: withDefaultPreferences(preferences),
      teams,
      unread_notifications_count: unreadCount,
      has2FA: user.two_factor_confirmed_at !== null
    } satisfies CurrentUser as CurrentUser
  }
)
