/**
 * The ids of accounts and users, which every room of the core names (tokens, records, webhooks):
 * here, below them all, so that none imports upward for them. `account/account.ts` offers them
 * with the account's schemas.
 */
import { Schema } from "effect"

/** An account's id: a positive integer. */
export const AccountId: Schema.Int = Schema.Int.check(Schema.isGreaterThan(0))
/** A user's id: a positive integer. */
export const UserId: Schema.Int = Schema.Int.check(Schema.isGreaterThan(0))
