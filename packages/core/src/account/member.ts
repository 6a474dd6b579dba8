/** A member of an account as its administrators see it, and a team as the teams API shows it. */
import { Schema } from "effect"
import { Permission } from "../auth/permission.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import { AccountId, MembershipStatus, UserId } from "./account.ts"
import { InvitationId } from "./invitation.ts"
import { TeamId } from "./user.ts"

/** The user of a member, as the members list shows it. */
export const MemberUser: Schema.Struct<{
  readonly id: Schema.Int
  readonly email: Schema.String
  readonly firstname: Schema.String
  readonly lastname: Schema.String
  readonly image: Schema.NullOr<Schema.String>
}> = Schema.Struct({
  id: UserId,
  email: Schema.String,
  firstname: Schema.String,
  lastname: Schema.String,
  image: Schema.NullOr(Schema.String)
}).annotate({ identifier: "MemberUser" })

/** A team as a member's entry names it. */
export const MemberTeam: Schema.Struct<{ readonly id: Schema.Int; readonly name: Schema.String }> = Schema.Struct({
  id: TeamId,
  name: Schema.String
}).annotate({ identifier: "MemberTeam" })

/**
 * One member of the account: the user, its status, its teams there and when it last used the
 * account. Someone invited but not yet a member is an {@link InvitedMember} (status `invited`).
 */
export const Member: Schema.Struct<{
  readonly user: typeof MemberUser
  /** `active` members act in the account; a `suspended` one keeps its teams and tokens, but none of its sessions or tokens works there. */
  readonly status: typeof MembershipStatus
  readonly teams: Schema.$Array<typeof MemberTeam>
  /** Emitted as `YYYY-MM-DD HH:MM:SS`, as `account.pivot.last_used`. */
  readonly last_used: Schema.NullOr<Schema.String>
  readonly created_at: typeof WireTimestamp
}> = Schema.Struct({
  user: MemberUser,
  status: MembershipStatus,
  teams: Schema.Array(MemberTeam),
  /** Emitted as `YYYY-MM-DD HH:MM:SS`, as `account.pivot.last_used`. */
  last_used: Schema.NullOr(Schema.String),
  created_at: WireTimestamp
}).annotate({ identifier: "Member" })
/** One member of the account (see the schema {@link Member}). */
export type Member = typeof Member.Type

/**
 * Someone invited to the account who has not accepted yet, as the members list shows them beside
 * the members: the invited address and teams, and the pending invitation (to revoke it). No user
 * (`user` null: the invitee may have none yet) and no last use.
 */
export const InvitedMember: Schema.Struct<{
  readonly user: Schema.Null
  readonly email: Schema.String
  readonly status: Schema.Literal<"invited">
  readonly teams: Schema.$Array<typeof MemberTeam>
  readonly last_used: Schema.Null
  readonly invitation_id: Schema.Int
  readonly expires_at: typeof WireTimestamp
  readonly created_at: typeof WireTimestamp
}> = Schema.Struct({
  user: Schema.Null,
  email: Schema.String,
  status: Schema.Literal("invited"),
  teams: Schema.Array(MemberTeam),
  last_used: Schema.Null,
  invitation_id: InvitationId,
  expires_at: WireTimestamp,
  created_at: WireTimestamp
}).annotate({ identifier: "InvitedMember" })
/** Someone invited who has not accepted yet (see the schema {@link InvitedMember}). */
export type InvitedMember = typeof InvitedMember.Type

/** An entry of the members list: a member (active or suspended), or someone invited (`invited`). */
export const MemberEntry: Schema.Union<readonly [typeof Member, typeof InvitedMember]> = Schema.Union([Member, InvitedMember])
/** An entry of the members list (see the schema {@link MemberEntry}). */
export type MemberEntry = typeof MemberEntry.Type

/** A team of the account as the teams API shows it: its permissions and its members' user ids. */
export const TeamDetails: Schema.Struct<{
  readonly id: Schema.Int
  readonly account_id: Schema.Int
  readonly name: Schema.String
  readonly description: Schema.NullOr<Schema.String>
  readonly made_by: Schema.NullOr<Schema.Int>
  readonly permissions: Schema.$Array<typeof Permission>
  readonly user_ids: Schema.$Array<Schema.Int>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct({
  id: TeamId,
  account_id: AccountId,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  made_by: Schema.NullOr(UserId),
  permissions: Schema.Array(Permission),
  user_ids: Schema.Array(UserId),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "TeamDetails" })
/** A team of the account as the teams API shows it (see the schema {@link TeamDetails}). */
export type TeamDetails = typeof TeamDetails.Type

/**
 * Who holds what in an account, read at once: each member's status and teams, and each team's
 * permissions. What the rule on the last member holding `member-manage` is decided on.
 */
export interface Roster {
  /** Every member (active or suspended) with the ids of its teams. */
  readonly members: ReadonlyArray<{
    readonly userId: number
    readonly status: "active" | "suspended"
    readonly teamIds: ReadonlyArray<number>
  }>
  /** Every team of the account with its permissions. */
  readonly teams: ReadonlyArray<{ readonly id: number; readonly permissions: ReadonlyArray<Permission> }>
}

/** The active members of the roster holding `permission` through one of their teams. */
export const holdersOf = (roster: Roster, permission: Permission): ReadonlySet<number> => {
  const granting = new Set(roster.teams.filter((team) => team.permissions.includes(permission)).map((team) => team.id))
  return new Set(
    roster.members
      .filter((member) => member.status === "active" && member.teamIds.some((id) => granting.has(id)))
      .map((member) => member.userId)
  )
}
