/** The body of `GET /api/me`: the User with its current account. */
import { Schema } from "effect"
import type { WireTimestamp } from "../wire/timestamp.ts"
import { Account, Membership, Subscription } from "./account.ts"
import type { Plan } from "./plan.ts"
import { NotificationPreference, Team, User } from "./user.ts"

const { webhook_limit: _internal, ...accountFields } = Account.fields

/**
 * The current account as `GET /api/me` shows it: the account (without its webhook limit), the
 * caller's membership and the subscription.
 */
export const AccountView: Schema.Struct<{
  readonly id: Schema.Int
  readonly name: Schema.String
  readonly plan: typeof Plan
  readonly otp_credits: Schema.Int
  readonly industry: Schema.NullOr<Schema.String>
  readonly logo: Schema.NullOr<Schema.String>
  readonly address: Schema.NullOr<Schema.String>
  readonly timeZone: Schema.NullOr<Schema.String>
  readonly calendar: Schema.NullOr<Schema.String>
  readonly hour12: Schema.NullOr<Schema.Boolean>
  readonly locale: Schema.NullOr<Schema.String>
  readonly currency: Schema.NullOr<Schema.String>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
  readonly pivot: typeof Membership
  readonly subscription: typeof Subscription
}> = Schema.Struct({
  ...accountFields,
  pivot: Membership,
  subscription: Subscription
}).annotate({ identifier: "CurrentAccount" })

/**
 * The body of `GET /api/me`: the user, the current account, the notification preferences
 * (defaults included), the user's teams in the account and the unread notifications count.
 */
export const CurrentUser: Schema.Struct<{
  readonly id: Schema.Int
  readonly email: Schema.String
  readonly email_verified_at: Schema.NullOr<typeof WireTimestamp>
  readonly firstname: Schema.String
  readonly lastname: Schema.String
  readonly image: Schema.NullOr<Schema.String>
  readonly locale: Schema.String
  readonly contacts_view_id: Schema.NullOr<Schema.String>
  readonly deals_view_id: Schema.NullOr<Schema.String>
  readonly tickets_view_id: Schema.NullOr<Schema.String>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
  readonly account: typeof AccountView
  readonly notification_preferences: Schema.$Array<typeof NotificationPreference>
  readonly teams: Schema.$Array<typeof Team>
  readonly unread_notifications_count: Schema.Int
  readonly has2FA: Schema.Boolean
}> = Schema.Struct({
  ...User.fields,
  account: AccountView,
  notification_preferences: Schema.Array(NotificationPreference),
  teams: Schema.Array(Team),
  unread_notifications_count: Schema.Int,
  has2FA: Schema.Boolean
}).annotate({ identifier: "CurrentUser" })
/** The body of `GET /api/me`. */
export type CurrentUser = typeof CurrentUser.Type
