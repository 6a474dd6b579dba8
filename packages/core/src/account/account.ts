/**
 * Accounts, their members' pivot and their subscription. Field names are the wire names, so one
 * schema serves storage, domain and JSON.
 */
import { Schema } from "effect"
import { WireTimestamp } from "../wire/timestamp.ts"
import { AccountId, UserId } from "../account-ids.ts"
import { Plan } from "./plan.ts"

export { AccountId, UserId } from "../account-ids.ts"

const Nullable = <S extends Schema.Top>(s: S) => Schema.NullOr(s)

/** An account: the tenant every record, webhook and token belongs to, with its plan and OTP credits. */
export const Account: Schema.Struct<{
  readonly id: Schema.Int
  readonly name: Schema.String
  readonly plan: typeof Plan
  /** Only meaningful on the `custom` plan. */
  readonly webhook_limit: Schema.NullOr<Schema.Int>
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
}> = Schema.Struct({
  id: AccountId,
  name: Schema.String,
  plan: Plan,
  /** Only meaningful on the `custom` plan. */
  webhook_limit: Nullable(Schema.Int),
  otp_credits: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  industry: Nullable(Schema.String),
  logo: Nullable(Schema.String),
  address: Nullable(Schema.String),
  timeZone: Nullable(Schema.String),
  calendar: Nullable(Schema.String),
  hour12: Nullable(Schema.Boolean),
  locale: Nullable(Schema.String),
  currency: Nullable(Schema.String),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "Account" })
/** An account: the tenant every record, webhook and token belongs to, with its plan and OTP credits. */
export type Account = typeof Account.Type

/** A membership's status: only `active` members can sign in to the account. */
export const MembershipStatus: Schema.Literals<readonly ["active", "suspended"]> = Schema.Literals([
  "active",
  "suspended"
])

/** account.pivot: the user's membership of the account. */
export const Membership: Schema.Struct<{
  readonly user_id: Schema.Int
  readonly account_id: Schema.Int
  readonly status: typeof MembershipStatus
  /** Emitted as `YYYY-MM-DD HH:MM:SS`. */
  readonly last_used: Schema.NullOr<Schema.String>
  readonly timeZone: Schema.String
  readonly calendar: Schema.NullOr<Schema.String>
  readonly hour12: Schema.Boolean
  readonly locale: Schema.NullOr<Schema.String>
  readonly currency: Schema.NullOr<Schema.String>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct({
  user_id: UserId,
  account_id: AccountId,
  status: MembershipStatus,
  /** Emitted as `YYYY-MM-DD HH:MM:SS`. */
  last_used: Nullable(Schema.String),
  timeZone: Schema.String,
  calendar: Nullable(Schema.String),
  hour12: Schema.Boolean,
  locale: Nullable(Schema.String),
  currency: Nullable(Schema.String),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "Membership" })
/** account.pivot: the user's membership of the account. */
export type Membership = typeof Membership.Type

/** The account's subscription (every account has exactly one), as `GET /api/me` shows it. */
export const Subscription: Schema.Struct<{
  readonly id: Schema.String
  readonly account_id: Schema.Int
  readonly name: Schema.String
  readonly status: Schema.String
  readonly trial_ends_at: Schema.NullOr<typeof WireTimestamp>
  readonly paused_at: Schema.NullOr<typeof WireTimestamp>
  readonly ends_at: Schema.NullOr<typeof WireTimestamp>
  readonly canceled_at: Schema.NullOr<typeof WireTimestamp>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
  readonly provider: Schema.String
  readonly will_change_at: Schema.NullOr<typeof WireTimestamp>
  readonly will_change_to: Schema.NullOr<Schema.String>
  readonly interval: Schema.Int
}> = Schema.Struct({
  id: Schema.String,
  account_id: AccountId,
  name: Schema.String,
  status: Schema.String,
  trial_ends_at: Nullable(WireTimestamp),
  paused_at: Nullable(WireTimestamp),
  ends_at: Nullable(WireTimestamp),
  canceled_at: Nullable(WireTimestamp),
  created_at: WireTimestamp,
  updated_at: WireTimestamp,
  provider: Schema.String,
  will_change_at: Nullable(WireTimestamp),
  will_change_to: Nullable(Schema.String),
  interval: Schema.Int
}).annotate({ identifier: "Subscription" })
/** The account's subscription (every account has exactly one). */
export type Subscription = typeof Subscription.Type
