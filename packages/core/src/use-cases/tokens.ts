/** Creating, listing and revoking API tokens (decisions §2). */
import { Effect } from "effect"
import { TOKEN_SECRET_LENGTH } from "../auth/api-token.ts"
import type { Ability } from "../auth/permission.ts"
import type { Principal } from "../auth/principal.ts"
import { TokenHasher } from "../auth/token-hasher.ts"
import { TokenRepository } from "../auth/token-repository.ts"
import { NotFound } from "../errors.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { authorize } from "./authenticate.ts"

/** Issue a token for the user in the account; the plain text is returned once and never stored. */
export const issueToken = Effect.fn("issueToken")(function*(input: {
  readonly accountId: number
  readonly userId: number
  readonly name: string
  readonly abilities: ReadonlyArray<Ability>
}) {
  const secret = yield* randomAlphanumeric(TOKEN_SECRET_LENGTH)
  const secretHash = yield* (yield* TokenHasher).hash(secret)
  const token = yield* (yield* TokenRepository).create({ ...input, secretHash })
  return { token, plainText: `${token.id}|${secret}` }
})

export const createToken = Effect.fn("createToken")(function*(
  principal: Principal,
  input: { readonly name: string; readonly abilities: ReadonlyArray<Ability> }
) {
  yield* authorize(principal, "token-manage")
  return yield* issueToken({ accountId: principal.accountId, userId: principal.userId, ...input })
})

export const listTokens = Effect.fn("listTokens")(function*(principal: Principal) {
  yield* authorize(principal, "token-manage")
  return yield* (yield* TokenRepository).list(principal.accountId, principal.userId)
})

export const revokeToken = Effect.fn("revokeToken")(function*(principal: Principal, id: number) {
  yield* authorize(principal, "token-manage")
  const removed = yield* (yield* TokenRepository).revoke(principal.accountId, principal.userId, id)
  if (!removed) return yield* new NotFound()
})
