import { Context, type Effect, type Option } from "effect"
import type { NotFound } from "../errors.ts"
import type { Account, Subscription } from "./account.ts"
import type { Plan } from "./plan.ts"

/** What {@link AccountRepositoryShape.create} needs to open an account. */
export interface NewAccount {
  /** The account's display name. */
  readonly name: string
  /** The plan it starts on. */
  readonly plan: Plan
  /** The webhook limit of a `custom` plan; null on the other plans. */
  readonly webhookLimit: number | null
  /** The OTP credits it starts with. */
  readonly otpCredits: number
}

/** An account's settings, as `PUT /api/account` sets them (each already validated and canonical). */
export interface AccountSettings {
  /** The account's display name. */
  readonly name: string
  /** The account's line of business, or none. */
  readonly industry: string | null
  /** The logo's https URL, or none. */
  readonly logo: string | null
  /** The postal address, or none. */
  readonly address: string | null
  /** An IANA time zone name, or none. */
  readonly timeZone: string | null
  /** A Unicode calendar identifier, or none. */
  readonly calendar: string | null
  /** Whether times show on a 12-hour clock, or none. */
  readonly hour12: boolean | null
  /** A BCP 47 language tag, or none. */
  readonly locale: string | null
  /** An ISO 4217 currency code, or none. */
  readonly currency: string | null
}

/** What the {@link AccountRepository} port offers (implement this to write an adapter). */
export interface AccountRepositoryShape {
  /** Creates the account and its subscription. */
  readonly create: (input: NewAccount) => Effect.Effect<Account>
  /** The account, or none. */
  readonly findById: (id: number) => Effect.Effect<Option.Option<Account>>
  /** How many accounts the database holds. */
  readonly count: Effect.Effect<number>
  /** The account's subscription; fails NotFound for an unknown account. */
  readonly subscription: (accountId: number) => Effect.Effect<Subscription, NotFound>
  /** Adds (or, negative, removes) credits; fails NotFound for an unknown account. */
  readonly addOtpCredits: (accountId: number, amount: number) => Effect.Effect<Account, NotFound>
  /** Moves the account to `plan` (with the limit of a `custom` plan); fails NotFound for an unknown account. */
  readonly setPlan: (accountId: number, plan: Plan, webhookLimit: number | null) => Effect.Effect<Account, NotFound>
  /** Replaces the account's settings; fails NotFound for an unknown account. */
  readonly setSettings: (accountId: number, settings: AccountSettings) => Effect.Effect<Account, NotFound>
}

const AccountRepositoryBase: Context.ServiceClass<
  AccountRepository,
  "@wasl/core/AccountRepository",
  AccountRepositoryShape
> = Context.Service<AccountRepository, AccountRepositoryShape>()("@wasl/core/AccountRepository")

/**
 * Accounts and their subscription. Every account has exactly one subscription. Its operations:
 * {@link AccountRepositoryShape}.
 */
export class AccountRepository extends AccountRepositoryBase {}
