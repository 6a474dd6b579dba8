/**
 * Accounts, their members' pivot and their subscription (spec §2.9). Field
 * names are the wire names, so one schema serves storage, domain and JSON.
 */
import { Schema } from "effect"
import { WireTimestamp } from "../wire/timestamp.ts"
import { Plan } from "./plan.ts"

export const AccountId = Schema.Int.check(Schema.isGreaterThan(0))
export const UserId = Schema.Int.check(Schema.isGreaterThan(0))

const Nullable = <S extends Schema.Top>(s: S) => Schema.NullOr(s)

export const Account = Schema.Struct({
  id: AccountId,
  name: Schema.String,
  plan: Plan,
  /** Only meaningful on the `custom` plan (decisions §2). */
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
export type Account = typeof Account.Type

export const MembershipStatus = Schema.Literals(["active", "suspended"])

/** account.pivot: the user's membership of the account. */
export const Membership = Schema.Struct({
  user_id: UserId,
  account_id: AccountId,
  status: MembershipStatus,
  /** Emitted as `YYYY-MM-DD HH:MM:SS` (spec §2.9). */
  last_used: Nullable(Schema.String),
  timeZone: Schema.String,
  calendar: Nullable(Schema.String),
  hour12: Schema.Boolean,
  locale: Nullable(Schema.String),
  currency: Nullable(Schema.String),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "Membership" })
export type Membership = typeof Membership.Type

export const Subscription = Schema.Struct({
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
export type Subscription = typeof Subscription.Type
