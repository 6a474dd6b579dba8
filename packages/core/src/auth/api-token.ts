/** API tokens, Sanctum style: `Bearer <id>|<40 random characters>`. */
import { Schema } from "effect"
import { AccountId, UserId } from "../account-ids.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import { Ability } from "./permission.ts"

/** A token's id: a positive integer, the part before `|` in the bearer value. */
export const TokenId: Schema.Int = Schema.Int.check(Schema.isGreaterThan(0))

/** An API token as the API shows it (never its secret). */
export const ApiToken: Schema.Struct<{
  readonly id: Schema.Int
  readonly name: Schema.String
  readonly abilities: Schema.$Array<typeof Ability>
  readonly last_used_at: Schema.NullOr<typeof WireTimestamp>
  readonly created_at: typeof WireTimestamp
}> = Schema.Struct({
  id: TokenId,
  name: Schema.String,
  abilities: Schema.Array(Ability),
  last_used_at: Schema.NullOr(WireTimestamp),
  created_at: WireTimestamp
}).annotate({ identifier: "ApiToken" })
/** An API token as the API shows it (never its secret). */
export type ApiToken = typeof ApiToken.Type

/** A token as stored: its owner and the SHA-256 (hex) of its secret part, never the secret. */
export interface StoredToken {
  /** The token. */
  readonly token: ApiToken
  /** The account it acts in. */
  readonly accountId: number
  /** The user it acts for. */
  readonly userId: number
  /** Lowercase hex SHA-256 of the secret part. */
  readonly secretHash: string
}

/** How many characters (from `[A-Za-z0-9]`) a token's secret part has. */
export const TOKEN_SECRET_LENGTH = 40

/** The two parts of a bearer value `<id>|<secret>`. */
export interface BearerParts {
  /** The token's id. */
  readonly id: number
  /** The secret part. */
  readonly secret: string
}

/** Split `<id>|<secret>`; anything else is not a token of ours. */
export const parseBearer = (value: string): BearerParts | undefined => {
  const match = /^([1-9][0-9]{0,15})\|([A-Za-z0-9]{40})$/.exec(value)
  if (match === null) return undefined
  const id = Number(match[1])
  // Ids past 2^53 would round and alias another token.
  return Number.isSafeInteger(id) ? { id, secret: match[2]! } : undefined
}

/** An `{ account_id, user_id }` pair. */
export const AccountAndUser: Schema.Struct<{ readonly account_id: Schema.Int; readonly user_id: Schema.Int }> = Schema
  .Struct({ account_id: AccountId, user_id: UserId })
