/** Operator actions of the command line (decisions §9); no principal, the shell is trusted. */
import { Effect, Option } from "effect"
import { AccountRepository } from "../account/account-repository.ts"
import type { Plan } from "../account/plan.ts"
import { UserRepository } from "../account/user-repository.ts"
import type { Ability } from "../auth/permission.ts"
import { invalid, NotFound } from "../errors.ts"
import { issueToken } from "./tokens.ts"

export const addOtpCredits = Effect.fn("addOtpCredits")(function*(accountId: number, amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    return yield* invalid("amount", "The amount must be a positive integer.")
  }
  return yield* (yield* AccountRepository).addOtpCredits(accountId, amount)
})

export const setPlan = Effect.fn("setPlan")(function*(accountId: number, plan: Plan, webhookLimit: number | null) {
  if (webhookLimit !== null && (!Number.isSafeInteger(webhookLimit) || webhookLimit < 0)) {
    return yield* invalid("webhook_limit", "The webhook limit must be a non-negative integer.")
  }
  return yield* (yield* AccountRepository).setPlan(accountId, plan, webhookLimit)
})

/** A token for a member of the account. */
export const createTokenForMember = Effect.fn("createTokenForMember")(function*(input: {
  readonly accountId: number
  readonly userId: number
  readonly abilities: ReadonlyArray<Ability>
  readonly name?: string
}) {
  const membership = yield* (yield* UserRepository).findMembership(input.accountId, input.userId)
  if (Option.isNone(membership)) return yield* new NotFound()
  return yield* issueToken({
    accountId: input.accountId,
    userId: input.userId,
    name: input.name ?? "cli",
    abilities: input.abilities
  })
})
