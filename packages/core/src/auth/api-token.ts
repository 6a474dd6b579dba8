/** API tokens, Sanctum style (decisions §2): `Bearer <id>|<40 random characters>`. */
import { Schema } from "effect"
import { AccountId, UserId } from "../account/account.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import { Ability } from "./permission.ts"

export const TokenId = Schema.Int.check(Schema.isGreaterThan(0))

export const ApiToken = Schema.Struct({
  id: TokenId,
  name: Schema.String,
  abilities: Schema.Array(Ability),
  last_used_at: Schema.NullOr(WireTimestamp),
  created_at: WireTimestamp
}).annotate({ identifier: "ApiToken" })
export type ApiToken = typeof ApiToken.Type

/** A token as stored: its owner and the SHA-256 (hex) of its secret part, never the secret. */
export interface StoredToken {
  readonly token: ApiToken
  readonly accountId: number
  readonly userId: number
  readonly secretHash: string
}

export const TOKEN_SECRET_LENGTH = 40

export interface BearerParts {
  readonly id: number
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

export const AccountAndUser = Schema.Struct({ account_id: AccountId, user_id: UserId })
