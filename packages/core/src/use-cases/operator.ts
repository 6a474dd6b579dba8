/** Operator actions of the command line; no principal, the shell is trusted. */
import { Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Account } from "../account/account.ts"
import { AccountRepository } from "../account/account-repository.ts"
import type { Plan } from "../account/plan.ts"
import { UserRepository } from "../account/user-repository.ts"
import type { Ability } from "../auth/permission.ts"
import type { TokenHasher } from "../auth/token-hasher.ts"
import type { TokenRepository } from "../auth/token-repository.ts"
import { invalid, NotFound, type ValidationFailed } from "../errors.ts"
import { type IssuedToken, issueToken } from "./tokens.ts"

/**
 * Adds `amount` OTP credits to the account (an operator action: no permission check). Answers the
 * account with its new balance. Fails {@link ValidationFailed} on `amount` unless it is a positive
 * integer, {@link NotFound} for an unknown account.
 */
export const addOtpCredits: (
  accountId: number,
  amount: number
) => Effect.Effect<Account, NotFound | ValidationFailed, AccountRepository> = Effect.fn("addOtpCredits")(
  function*(accountId: number, amount: number) {
    if (!Number.isSafeInteger(amount) || amount <= 0) {
      return yield* invalid("amount", "The amount must be a positive integer.")
    }
    return yield* (yield* AccountRepository).addOtpCredits(accountId, amount)
  }
)

/**
 * Moves the account to `plan`; `webhookLimit` is the limit of a `custom` plan (null: none). An
 * operator action: no permission check. Answers the account. Fails {@link ValidationFailed} on
 * `webhook_limit` unless it is null or a non-negative integer, {@link NotFound} for an unknown
 * account.
 */
export const setPlan: (
  accountId: number,
  plan: Plan,
  webhookLimit: number | null
) => Effect.Effect<Account, NotFound | ValidationFailed, AccountRepository> = Effect.fn("setPlan")(
  function*(accountId: number, plan: Plan, webhookLimit: number | null) {
    if (webhookLimit !== null && (!Number.isSafeInteger(webhookLimit) || webhookLimit < 0)) {
      return yield* invalid("webhook_limit", "The webhook limit must be a non-negative integer.")
    }
    return yield* (yield* AccountRepository).setPlan(accountId, plan, webhookLimit)
  }
)

/** What {@link createTokenForMember} needs. */
export interface MemberTokenInput {
  /** The account the token acts in. */
  readonly accountId: number
  /** The member it acts for. */
  readonly userId: number
  /** What it may do (`*` for everything the member may do). */
  readonly abilities: ReadonlyArray<Ability>
  /** Its name (default `cli`). */
  readonly name?: string
}

/**
 * A token for a member of the account (an operator action: no permission check). Answers the
 * token and its bearer value, shown only now. Fails {@link NotFound} when the user is not a member
 * of the account.
 */
export const createTokenForMember: (
  input: MemberTokenInput
) => Effect.Effect<IssuedToken, NotFound, SecureRandom.SecureRandom | TokenHasher | TokenRepository | UserRepository> =
  Effect.fn("createTokenForMember")(function*(input: MemberTokenInput) {
    const membership = yield* (yield* UserRepository).findMembership(input.accountId, input.userId)
    if (Option.isNone(membership)) return yield* new NotFound()
    return yield* issueToken({
      accountId: input.accountId,
      userId: input.userId,
      name: input.name ?? "cli",
      abilities: input.abilities
    })
  })
