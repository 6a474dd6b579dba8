import { Context, type Effect, type Option } from "effect"
import type { NotFound } from "../errors.ts"
import type { Account, Subscription } from "./account.ts"
import type { Plan } from "./plan.ts"

export interface NewAccount {
  readonly name: string
  readonly plan: Plan
  readonly webhookLimit: number | null
  readonly otpCredits: number
}

/** Accounts and their subscription. Every account has exactly one subscription. */
export class AccountRepository extends Context.Service<AccountRepository, {
  readonly create: (input: NewAccount) => Effect.Effect<Account>
  readonly findById: (id: number) => Effect.Effect<Option.Option<Account>>
  readonly count: Effect.Effect<number>
  readonly subscription: (accountId: number) => Effect.Effect<Subscription, NotFound>
  /** Adds (or, negative, removes) credits; fails NotFound for an unknown account. */
  readonly addOtpCredits: (accountId: number, amount: number) => Effect.Effect<Account, NotFound>
  readonly setPlan: (accountId: number, plan: Plan, webhookLimit: number | null) => Effect.Effect<Account, NotFound>
}>()("@wasl/core/AccountRepository") {}
