/** Creating an account with its owner, the Administrators team and an all-abilities token. */
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Account, Membership } from "../account/account.ts"
import { AccountRepository, type NewAccount } from "../account/account-repository.ts"
import type { Plan } from "../account/plan.ts"
import { TeamRepository } from "../account/team-repository.ts"
import type { Team } from "../account/user.ts"
import { UserRepository } from "../account/user-repository.ts"
import { PasswordHasher } from "../auth/password-hasher.ts"
import { PERMISSIONS } from "../auth/permission.ts"
import type { TokenHasher } from "../auth/token-hasher.ts"
import type { TokenRepository } from "../auth/token-repository.ts"
import type { ValidationFailed } from "../errors.ts"
import { Transactor } from "../transactor.ts"
import { issueToken } from "./tokens.ts"

/** An account just opened, with its Administrators team. */
export interface OpenedAccount {
  /** The account. */
  readonly account: Account
  /** The owner's membership of it. */
  readonly membership: Membership
  /** Its Administrators team, which holds every permission and its owner. */
  readonly team: Team
}

/**
 * Opens an account owned by the existing user `ownerId`: the account with its subscription, the
 * owner's active membership, and the Administrators team holding every permission with the owner
 * in it. What every new account is made of, whoever opens it (an operator's bootstrap, the first
 * run, a user's `createAccount`). Run it in a transaction.
 */
export const openAccount = (
  ownerId: number,
  input: NewAccount
): Effect.Effect<OpenedAccount, never, AccountRepository | TeamRepository | UserRepository> =>
  Effect.gen(function*() {
    const account = yield* (yield* AccountRepository).create(input)
    const membership = yield* (yield* UserRepository).addMembership(account.id, ownerId)
    const team = yield* (yield* TeamRepository).create({
      accountId: account.id,
      name: "Administrators",
      description: "Holds every permission.",
      madeBy: ownerId,
      permissions: PERMISSIONS
    }, [ownerId])
    return { account, membership, team }
  })

/** What {@link bootstrapAccount} needs: the account and its owner. */
export interface BootstrapInput {
  /** The account's name. */
  readonly account: string
  /** The owner's login e-mail; its local part gives the owner's first and last name. */
  readonly email: string
  /** The owner's password (stored hashed). */
  readonly password: string
  /** The account's plan. */
  readonly plan: Plan
  /** The OTP credits the account starts with. */
  readonly otpCredits: number
  /** The webhook limit of a `custom` plan (none by default). */
  readonly webhookLimit?: number | null
}

/** What {@link bootstrapAccount} made. */
export interface BootstrapResult {
  /** The new account's id. */
  readonly account_id: number
  /** The owner's user id. */
  readonly user_id: number
  /** The id of the account's Administrators team. */
  readonly team_id: number
  /** The owner's API token (`<id>|<secret>`), shown only here: only its hash is stored. */
  readonly token: string
}

/** The ports {@link bootstrapAccount} (and the first run) use. */
export type BootstrapServices =
  | AccountRepository
  | PasswordHasher
  | SecureRandom.SecureRandom
  | TeamRepository
  | TokenHasher
  | TokenRepository
  | Transactor
  | UserRepository

/**
 * Creates an account with its owner: the user (an active member), an Administrators team that
 * holds every permission with the owner in it, and an owner API token with every ability. Needs no
 * principal: it is what an operator (or the first run) calls to give someone access.
 *
 * Everything is written in one transaction. Fails {@link ValidationFailed} on `email` when a user
 * already has that address (nothing is created then).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { bootstrapAccount } from "@wasl/core"
 * import { WaslMemory } from "@wasl/adapters/memory"
 *
 * const created = await Effect.runPromise(
 *   bootstrapAccount({
 *     account: "Acme",
 *     email: "jane.doe@acme.test",
 *     password: "correct horse battery",
 *     plan: "business",
 *     otpCredits: 100
 *   }).pipe(Effect.provide(WaslMemory.layer()))
 * )
 * console.log(created.token) // "1|…": the owner's bearer token (first name "jane", last name "doe")
 * ```
 */
export const bootstrapAccount: (
  input: BootstrapInput
) => Effect.Effect<BootstrapResult, ValidationFailed, BootstrapServices> = Effect.fn("bootstrapAccount")(function*(input: BootstrapInput) {
  // Hash outside the transaction: it is slow on purpose and needs no locks.
  const passwordHash = yield* (yield* PasswordHasher).hash(input.password)
  const users = yield* UserRepository
  return yield* (yield* Transactor).transaction(Effect.gen(function*() {
    const [firstname = "", ...rest] = input.email.split("@")[0]!.split(/[._-]/)
    const user = yield* users.create({
      email: input.email,
      passwordHash,
      firstname,
      lastname: rest.join(" ")
    })
    const { account, team } = yield* openAccount(user.id, {
      name: input.account,
      plan: input.plan,
      webhookLimit: input.webhookLimit ?? null,
      otpCredits: input.otpCredits
    })
    const { plainText } = yield* issueToken({
      accountId: account.id,
      userId: user.id,
      name: "owner",
      abilities: ["*"]
    })
    return { account_id: account.id, user_id: user.id, team_id: team.id, token: plainText }
  }))
})
