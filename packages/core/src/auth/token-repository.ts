import { Context, type Effect, type Option } from "effect"
import type { ApiToken, StoredToken } from "./api-token.ts"
import type { Ability } from "./permission.ts"

export interface NewToken {
  readonly accountId: number
  readonly userId: number
  readonly name: string
  readonly abilities: ReadonlyArray<Ability>
  readonly secretHash: string
}

/** API tokens; only a hash of the secret part is kept. */
export class TokenRepository extends Context.Service<TokenRepository, {
  readonly create: (input: NewToken) => Effect.Effect<ApiToken>
  readonly findById: (id: number) => Effect.Effect<Option.Option<StoredToken>>
  readonly list: (accountId: number, userId: number) => Effect.Effect<ReadonlyArray<ApiToken>>
  /** True when a token of that user in that account was removed. */
  readonly revoke: (accountId: number, userId: number, id: number) => Effect.Effect<boolean>
  readonly touch: (id: number) => Effect.Effect<void>
}>()("@wasl/core/TokenRepository") {}
