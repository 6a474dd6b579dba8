import { Context, type Effect, type Option } from "effect"
import type { Permission } from "../auth/permission.ts"
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
}

const TeamRepositoryBase: Context.ServiceClass<TeamRepository, "@wasl/core/TeamRepository", TeamRepositoryShape> =
  Context.Service<TeamRepository, TeamRepositoryShape>()("@wasl/core/TeamRepository")

/**
 * Teams carry permissions; users join teams within one account.
 * Its operations: {@link TeamRepositoryShape}.
 */
export class TeamRepository extends TeamRepositoryBase {}
