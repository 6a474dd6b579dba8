/**
 * A user's several accounts: listing them, moving a session to another one, opening a new one.
 * A token stays in the account it was made in; a session moves between its user's accounts.
 */
import { Effect, Option } from "effect"
import type { Account, Membership } from "../account/account.ts"
import { AccountRepository } from "../account/account-repository.ts"
import type { CurrentUser, MemberAccount } from "../account/current-user.ts"
import type { CurrentUserReader } from "../account/current-user-reader.ts"
import type { MessageAllowanceLedger } from "../account/message-allowance-ledger.ts"
import type { TeamRepository } from "../account/team-repository.ts"
import { UserRepository } from "../account/user-repository.ts"
import { demand } from "../auth/caller-check.ts"
import type { Principal } from "../auth/principal.ts"
import { SessionRepository } from "../auth/session-repository.ts"
import { type Forbidden, invalid, NotFound, type Unauthenticated, type ValidationFailed } from "../errors.ts"
import { Transactor } from "../transactor.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { openAccount } from "./bootstrap.ts"
import { currentUser } from "./current-user.ts"

const ACCOUNT_NAME_MAX = 255

/** The account as the caller's list shows it: without its webhook limit, with the caller's membership. */
export const memberAccountOf = (account: Account, membership: Membership): MemberAccount => {
  const { webhook_limit: _internal, ...view } = account
  return { ...view, pivot: membership }
}

/** An account's name: trimmed, not empty, at most 255 characters; fails ValidationFailed on `name`. */
export const accountName = (name: string): Effect.Effect<string, ValidationFailed> => {
  const trimmed = laravelTrim(name)
  if (trimmed === "") return Effect.fail(invalid("name", LaravelMessage.required("name")))
  if (trimmed.length > ACCOUNT_NAME_MAX) return Effect.fail(invalid("name", LaravelMessageMore.maxString("name", ACCOUNT_NAME_MAX)))
  return Effect.succeed(trimmed)
}

/**
 * The accounts the caller is an active member of, most recently used first, each with the
 * caller's membership (`pivot`). Any authenticated caller, for itself: a token lists them too,
 * though it acts only in its own.
 */
export const listMyAccounts: (
  principal: Pick<Principal, "userId">
) => Effect.Effect<ReadonlyArray<MemberAccount>, never, AccountRepository | UserRepository> = Effect.fn("listMyAccounts")(
  function*(principal: Pick<Principal, "userId">) {
    const memberships = yield* (yield* UserRepository).listMemberships(principal.userId)
    const accounts = yield* AccountRepository
    const listed: Array<MemberAccount> = []
    for (const membership of memberships) {
      const account = yield* accounts.findById(membership.account_id)
      if (Option.isSome(account)) listed.push(memberAccountOf(account.value, membership))
    }
    return listed
  }
)

/**
 * Moves the caller's session to another of its user's accounts, and answers the user as
 * `GET /api/me` then shows it (its `account` the new one). Only a session moves: a token fails
 * {@link Forbidden} (it stays in the account it was made in). An account the user is not an active
 * member of fails {@link NotFound}, as an account that does not exist does (nothing tells them apart).
 */
export const switchAccount: (
  principal: Principal,
  accountId: number
) => Effect.Effect<
  CurrentUser,
  Forbidden | NotFound | Unauthenticated,
  CurrentUserReader | MessageAllowanceLedger | SessionRepository | UserRepository
> = Effect.fn("switchAccount")(function*(principal: Principal, accountId: number) {
  yield* demand(principal, { _tag: "SessionOnly" })
  const users = yield* UserRepository
  const membership = yield* users.findMembership(accountId, principal.userId)
  if (Option.isNone(membership) || membership.value.status !== "active") return yield* new NotFound()
  if (!(yield* (yield* SessionRepository).switchAccount(principal.sessionId!, accountId))) return yield* new NotFound()
  yield* users.touchMembership(accountId, principal.userId)
  return yield* currentUser({ accountId, userId: principal.userId })
})

/**
 * Opens a new account named `name` (trimmed, not empty, at most 255 characters) on the `free`
 * plan, made exactly as every account is (`openAccount`): its subscription, the Administrators
 * team holding every permission, and the caller as its owner, first administrator and only
 * member. The caller's session stays where it is (`switchAccount` moves it). Needs a session (a
 * token fails {@link Forbidden}: it acts in its own account only), and no permission.
 */
export const createAccount: (
  principal: Principal,
  name: string
) => Effect.Effect<
  MemberAccount,
  Forbidden | ValidationFailed,
  AccountRepository | TeamRepository | Transactor | UserRepository
> = Effect.fn("createAccount")(function*(principal: Principal, name: string) {
  yield* demand(principal, { _tag: "SessionOnly" })
  const trimmed = yield* accountName(name)
  return yield* (yield* Transactor).transaction(Effect.gen(function*() {
    const { account, membership } = yield* openAccount(principal.userId, {
      name: trimmed,
      plan: "free",
      webhookLimit: null,
      otpCredits: 0
    })
    return memberAccountOf(account, membership)
  }))
})
