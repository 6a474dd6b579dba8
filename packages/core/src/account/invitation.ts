/** Invitations to join an account: sent by mail, accepted once, within 7 days. */
import { Schema } from "effect"
import { WireTimestamp } from "../wire/timestamp.ts"
import { AccountId, UserId } from "./account.ts"
import { TeamId } from "./user.ts"

/** How long an invitation can be accepted: 7 days from when it was made. */
export const INVITATION_LIFETIME_MILLIS: number = 7 * 24 * 60 * 60 * 1000

/** How many characters (from `[A-Za-z0-9]`) an invitation's token has. */
export const INVITATION_TOKEN_LENGTH = 40

/** An invitation id: a positive integer. */
export const InvitationId: Schema.Int = Schema.Int.check(Schema.isGreaterThan(0))

/** A pending invitation as the API shows it (never its token). */
export const Invitation: Schema.Struct<{
  readonly id: Schema.Int
  readonly account_id: Schema.Int
  readonly email: Schema.String
  readonly team_ids: Schema.$Array<Schema.Int>
  readonly invited_by: Schema.NullOr<Schema.Int>
  readonly status: Schema.Literal<"invited">
  readonly expires_at: typeof WireTimestamp
  readonly created_at: typeof WireTimestamp
}> = Schema.Struct({
  id: InvitationId,
  account_id: AccountId,
  email: Schema.String,
  team_ids: Schema.Array(TeamId),
  invited_by: Schema.NullOr(UserId),
  status: Schema.Literal("invited"),
  expires_at: WireTimestamp,
  created_at: WireTimestamp
}).annotate({ identifier: "Invitation" })
/** A pending invitation as the API shows it (see the schema {@link Invitation}). */
export type Invitation = typeof Invitation.Type

/** What an invitation has become: only a `pending` one that has not expired can be accepted. */
export type InvitationState = "pending" | "accepted" | "revoked"

/** An invitation as stored, found by its token's hash. */
export interface StoredInvitation {
  /** The invitation. */
  readonly invitation: Invitation
  /** Whether it was accepted or revoked. */
  readonly state: InvitationState
}
