/** The body of `GET /api/me` (spec §2.9, decisions §8): the User with its current account. */
import { Schema } from "effect"
import { Account, Membership, Subscription } from "./account.ts"
import { NotificationPreference, Team, User } from "./user.ts"

const { webhook_limit: _internal, ...accountFields } = Account.fields

export const AccountView = Schema.Struct({
  ...accountFields,
  pivot: Membership,
  subscription: Subscription
}).annotate({ identifier: "CurrentAccount" })

export const CurrentUser = Schema.Struct({
  ...User.fields,
  account: AccountView,
  notification_preferences: Schema.Array(NotificationPreference),
  teams: Schema.Array(Team),
  unread_notifications_count: Schema.Int,
  has2FA: Schema.Boolean
}).annotate({ identifier: "CurrentUser" })
export type CurrentUser = typeof CurrentUser.Type
