/** Creating an account with its owner, the Administrators team and an all-abilities token. */
import { Effect } from "effect"
import { AccountRepository } from "../account/account-repository.ts"
import type { Plan } from "../account/plan.ts"
import { TeamRepository } from "../account/team-repository.ts"
import { UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import { PERMISSIONS } from "../auth/permission.ts"
import { Transactor } from "../transactor.ts"
import { issueToken } from "./tokens.ts"

export interface BootstrapInput {
  readonly account: string
  readonly email: string
  readonly password: string
  readonly plan: Plan
  readonly otpCredits: number
  readonly webhookLimit?: number | null
}

export const bootstrapAccount = Effect.fn("bootstrapAccount")(function*(input: BootstrapInput) {
  // Hash outside the transaction: it is slow on purpose and needs no locks.
  const passwordHash = yield* (yield* PasswordHasher).hash(input.password)
  const accounts = yield* AccountRepository
  const users = yield* UserRepository
  const teams = yield* TeamRepository
  return yield* (yield* Transactor).transaction(Effect.gen(function*() {
    const account = yield* accounts.create({
      name: input.account,
      plan: input.plan,
      webhookLimit: input.webhookLimit ?? null,
      otpCredits: input.otpCredits
    })
    const [firstname = "", ...rest] = input.email.split("@")[0]!.split(/[._-]/)
    const user = yield* users.create({
      email: input.email,
      passwordHash,
      firstname,
      lastname: rest.join(" ")
    })
    yield* users.addMembership(account.id, user.id)
    const team = yield* teams.create({
      accountId: account.id,
      name: "Administrators",
      description: "Holds every permission.",
      madeBy: user.id,
      permissions: PERMISSIONS
    }, [user.id])
    const { plainText } = yield* issueToken({
      accountId: account.id,
      userId: user.id,
      name: "owner",
      abilities: ["*"]
    })
    return { account_id: account.id, user_id: user.id, team_id: team.id, token: plainText }
  }))
})
