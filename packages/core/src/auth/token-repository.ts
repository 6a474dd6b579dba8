import { Context, type Effect, type Option } from "effect"
import type { ApiToken, StoredToken } from "./api-token.ts"
import type { Ability } from "./permission.ts"

/** What {@link TokenRepositoryShape.create} needs to store a token. */
export interface NewToken {
  /** The account the token acts in. */
  readonly accountId: number
  /** The user it acts for. */
  readonly userId: number
  /** Its name, shown in the list. */
  readonly name: string
  /** What it may do (`*` for everything the user may do). */
  readonly abilities: ReadonlyArray<Ability>
  /** Lowercase hex SHA-256 of the secret part. */
  readonly secretHash: string
}

/** What the {@link TokenRepository} port offers (implement this to write an adapter). */
export interface TokenRepositoryShape {
  /** Stores the token and answers it with its id. */
  readonly create: (input: NewToken) => Effect.Effect<ApiToken>
  /** The token with its owner and secret hash, or none. */
  readonly findById: (id: number) => Effect.Effect<Option.Option<StoredToken>>
  /** The user's tokens in the account, by id, one page: its tokens and how many the user has in all. */
  readonly list: (
    accountId: number,
    userId: number,
    page: { readonly offset: number; readonly limit: number }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<ApiToken>; readonly total: number }>
  /** True when a token of that user in that account was removed. */
  readonly revoke: (accountId: number, userId: number, id: number) => Effect.Effect<boolean>
  /** Sets the token's `last_used_at` to now. */
  readonly touch: (id: number) => Effect.Effect<void>
}

const TokenRepositoryBase: Context.ServiceClass<TokenRepository, "@wasl/core/TokenRepository", TokenRepositoryShape> =
  Context.Service<TokenRepository, TokenRepositoryShape>()("@wasl/core/TokenRepository")

/**
 * API tokens; only a hash of the secret part is kept.
 * Its operations: {@link TokenRepositoryShape}.
 */
export class TokenRepository extends TokenRepositoryBase {}
