import { Context, type Effect, type Option } from "effect"
import type { Permission } from "../auth/permission.ts"
import type { TeamDetails } from "./member.ts"
import type { Team } from "./user.ts"

/** What {@link TeamRepositoryShape.create} needs to make a team. */
export interface NewTeam {
  /** The account the team belongs to. */
  readonly accountId: number
  /** The team's name. */
  readonly name: string
  /** What the team is for, if said. */
  readonly description: string | null
  /** The user who made it, if any. */
  readonly madeBy: number | null
  /** The permissions every member of the team holds. */
  readonly permissions: ReadonlyArray<Permission>
}

/** What {@link TeamRepositoryShape.update} changes of a team. */
export interface TeamChanges {
  /** The team's name. */
  readonly name: string
  /** What the team is for, if said. */
  readonly description: string | null
  /** The permissions every member of the team holds. */
  readonly permissions: ReadonlyArray<Permission>
}

/** What the {@link TeamRepository} port offers (implement this to write an adapter). */
export interface TeamRepositoryShape {
  /** Creates the team with `members` in it. */
  readonly create: (input: NewTeam, members: ReadonlyArray<number>) => Effect.Effect<Team>
  /** The user's teams in the account, each with the user's pivot. */
  readonly listForUser: (accountId: number, userId: number) => Effect.Effect<ReadonlyArray<Team>>
  /**
   * What every authenticated request needs, in one read: the union of the permissions of the
   * user's teams in the account, or `None` when the user is not an active member of it.
   */
  readonly grantsOf: (accountId: number, userId: number) => Effect.Effect<Option.Option<ReadonlyArray<Permission>>>
  /** One page of the account's teams, by id, and how many it has. */
  readonly list: (
    accountId: number,
    page: { readonly offset: number; readonly limit: number }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<TeamDetails>; readonly total: number }>
  /** The team of the account, or none. */
  readonly find: (accountId: number, id: number) => Effect.Effect<Option.Option<TeamDetails>>
  /** Creates a team with no members. */
  readonly add: (input: NewTeam) => Effect.Effect<TeamDetails>
  /** Changes the team's name, description and permissions; none when the account has no such team. */
  readonly update: (accountId: number, id: number, changes: TeamChanges) => Effect.Effect<Option.Option<TeamDetails>>
  /** Deletes the team (its members leave it); true when there was one. */
  readonly remove: (accountId: number, id: number) => Effect.Effect<boolean>
  /** Makes the team's members exactly `userIds` (members of the account). */
  readonly setMembers: (accountId: number, id: number, userIds: ReadonlyArray<number>) => Effect.Effect<void>
}

const TeamRepositoryBase: Context.ServiceClass<TeamRepository, "@wasl/core/TeamRepository", TeamRepositoryShape> =
  Context.Service<TeamRepository, TeamRepositoryShape>()("@wasl/core/TeamRepository")

/**
 * Teams carry permissions; users join teams within one account.
 * Its operations: {@link TeamRepositoryShape}.
 */
export class TeamRepository extends TeamRepositoryBase {}
