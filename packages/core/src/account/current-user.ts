/** The body of `GET /api/me`: the User with its current account. */
import { Schema } from "effect"
import { Account, Membership, Subscription } from "./account.ts"
import { MessageAllowance } from "./message-allowance.ts"
import { NotificationPreference, Team, User } from "./user.ts"

const { webhook_limit: _internal, ...accountFields } = Account.fields

/**
 * The current account as `GET /api/me` shows it: the account (without its webhook limit), the
 * caller's membership, the subscription and the month's message allowance.
 */
export const AccountView: Schema.Struct<
  Omit<typeof Account.fields, "webhook_limit"> & {
    readonly pivot: typeof Membership
    readonly subscription: typeof Subscription
    readonly message_allowance: typeof MessageAllowance
  }
> = Schema.Struct({
  ...accountFields,
  pivot: Membership,
  subscription: Subscription,
  message_allowance: MessageAllowance
}).annotate({ identifier: "CurrentAccount" })

/**
 * One of the caller's accounts as `GET /api/me/accounts` lists it: the account (without its
 * webhook limit) and the caller's membership of it.
 */
export const MemberAccount: Schema.Struct<
  Omit<typeof Account.fields, "webhook_limit"> & { readonly pivot: typeof Membership }
> = Schema.Struct({ ...accountFields, pivot: Membership }).annotate({ identifier: "MemberAccount" })
/** One of the caller's accounts, with the caller's membership of it. */
export type MemberAccount = typeof MemberAccount.Type

/**
 * The body of `GET /api/me`: the user, the current account, the notification preferences
 * (defaults included), the user's teams in the account and the unread notifications count.
 */
export const CurrentUser: Schema.Struct<
  typeof User.fields & {
    readonly account: typeof AccountView
    readonly notification_preferences: Schema.$Array<typeof NotificationPreference>
    readonly teams: Schema.$Array<typeof Team>
    readonly unread_notifications_count: Schema.Int
    readonly has2FA: Schema.Boolean
  }
> = Schema.Struct({
  ...User.fields,
  account: AccountView,
  notification_preferences: Schema.Array(NotificationPreference),
  teams: Schema.Array(Team),
  unread_notifications_count: Schema.Int,
  has2FA: Schema.Boolean
}).annotate({ identifier: "CurrentUser" })
/** The body of `GET /api/me`. */
export type CurrentUser = typeof CurrentUser.Type
