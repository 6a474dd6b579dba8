/** Creating, listing and revoking API tokens. */
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import { type ApiToken, TOKEN_SECRET_LENGTH } from "../auth/api-token.ts"
import type { Ability } from "../auth/permission.ts"
import { demand } from "../auth/caller-check.ts"
import type { Principal } from "../auth/principal.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { TokenRepository } from "../auth/token-repository.ts"
import { type Forbidden, NotFound, type ValidationFailed } from "../errors.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { type Page, pageOffset, parsePageParams } from "../records/pagination.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { authorize } from "./authenticate.ts"

/** What {@link issueToken} needs. */
export interface IssueTokenInput {
  /** The account the token acts in. */
  readonly accountId: number
  /** The user it acts for (a member of the account). */
  readonly userId: number
  /** Its name, shown in the list. */
  readonly name: string
  /** What it may do (`*` for everything the user may do). */
  readonly abilities: ReadonlyArray<Ability>
}

/** A token just made: the token, and its bearer value, shown only now (only its hash is stored). */
export interface IssuedToken {
  /** The token as the API shows it. */
  readonly token: ApiToken
  /** The bearer value `<id>|<secret>`. */
  readonly plainText: string
}

/** What {@link createToken} needs: the new token's name and abilities. */
export interface CreateTokenInput {
  /** Its name, shown in the list. */
  readonly name: string
  /** What it may do (`*` for everything the caller may do). */
  readonly abilities: ReadonlyArray<Ability>
}

/**
 * Issues a token for the user in the account, with no permission check (the caller has made
 * sure the user may have one): a secret of 40 characters from a CSPRNG, stored as its SHA-256.
 * Its abilities are kept once each, in the order first given, so a token never holds more than
 * there are (`ABILITIES`). Answers the token and its bearer value, which is never shown again.
 */
export const issueToken: (
  input: IssueTokenInput
) => Effect.Effect<IssuedToken, never, SecureRandom.SecureRandom | TokenHasher | TokenRepository> = Effect.fn(
  "issueToken"
)(function*(input: IssueTokenInput) {
  const secret = yield* randomAlphanumeric(TOKEN_SECRET_LENGTH)
  const secretHash = yield* (yield* TokenHasher).hash(secret)
  const abilities = [...new Set(input.abilities)]
  const token = yield* (yield* TokenRepository).create({ ...input, abilities, secretHash })
  return { token, plainText: `${token.id}|${secret}` }
})

/**
 * `POST /api/tokens`: a new token of the caller in the caller's account. Needs `token-manage`
 * (else {@link Forbidden}), and every ability asked for must be one the caller may grant
 * (`mayGrant`: within its own abilities and its user's permissions, `*` only from `*`), else
 * {@link Forbidden} naming the first that is not. Answers the token and its bearer value, which is
 * never shown again.
 */
export const createToken: (
  principal: Principal,
  input: CreateTokenInput
) => Effect.Effect<IssuedToken, Forbidden, SecureRandom.SecureRandom | TokenHasher | TokenRepository> = Effect.fn(
  "createToken"
)(function*(principal: Principal, input: CreateTokenInput) {
  yield* authorize(principal, "token-manage")
  for (const ability of input.abilities) yield* demand(principal, { _tag: "Grant", ability })
  return yield* issueToken({ accountId: principal.accountId, userId: principal.userId, ...input })
})

/**
 * `GET /api/tokens`: one page (`page`, `per_page` of `query`) of the caller's tokens in the
 * account, by id (never their secrets), and their total. Needs `token-manage` (else
 * {@link Forbidden}); fails {@link ValidationFailed} for a bad `page` or `per_page`.
 */
export const listTokens: (
  principal: Principal,
  query: ListQueryInput
) => Effect.Effect<Page<ApiToken>, Forbidden | ValidationFailed, TokenRepository> = Effect.fn("listTokens")(
  function*(principal: Principal, query: ListQueryInput) {
    yield* authorize(principal, "token-manage")
    const page = yield* parsePageParams(query)
    const { items, total } = yield* (yield* TokenRepository).list(principal.accountId, principal.userId, {
      offset: pageOffset(page),
      limit: page.perPage
    })
    return { items, total, ...page }
  }
)

/**
 * `DELETE /api/tokens/{id}`: revokes one of the caller's tokens in the account; it stops working
 * at once. Needs `token-manage`. Fails {@link NotFound} when the caller has no such token there.
 */
export const revokeToken: (
  principal: Principal,
  id: number
) => Effect.Effect<void, Forbidden | NotFound, TokenRepository> = Effect.fn("revokeToken")(
  function*(principal: Principal, id: number) {
    yield* authorize(principal, "token-manage")
    const removed = yield* (yield* TokenRepository).revoke(principal.accountId, principal.userId, id)
    if (!removed) return yield* new NotFound()
  }
)
