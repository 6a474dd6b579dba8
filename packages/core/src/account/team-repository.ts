import { Context, type Effect, type Option } from "effect"
import type { Permission } from "../auth/permission.ts"
import type { Team } from "./user.ts"

export interface NewTeam {
  readonly accountId: number
  readonly name: string
  readonly description: string | null
  readonly madeBy: number | null
  readonly permissions: ReadonlyArray<Permission>
}

/** Teams carry permissions; users join teams within one account. */
export class TeamRepository extends Context.Service<TeamRepository, {
  /** Creates the team with `members` in it. */
  readonly create: (input: NewTeam, members: ReadonlyArray<number>) => Effect.Effect<Team>
  /** The user's teams in the account, each with the user's pivot. */
  readonly listForUser: (accountId: number, userId: number) => Effect.Effect<ReadonlyArray<Team>>
  /**
   * What every authenticated request needs, in one read: the union of the permissions of the
   * user's teams in the account, or `None` when the user is not an active member of it.
   */
  readonly grantsOf: (accountId: number, userId: number) => Effect.Effect<Option.Option<ReadonlyArray<Permission>>>
}>()("@wasl/core/TeamRepository") {}
