/** The account's teams and their permissions, managed by members holding `team-manage`. */
import { Effect, Option } from "effect"
import type { Roster, TeamDetails } from "../account/member.ts"
import { MemberRepository } from "../account/member-repository.ts"
import { TeamRepository } from "../account/team-repository.ts"
import type { Permission } from "../auth/permission.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, NotFound, ValidationFailed } from "../errors.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { type Page, pageOffset, parsePageParams } from "../records/pagination.ts"
import { Transactor } from "../transactor.ts"
import { laravelTrim } from "../validation/laravel-trim.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { authorize } from "./authenticate.ts"
import { delegate, keepAManager, memberIdsOf, requireAmong } from "./membership-rules.ts"

const NAME_MAX = 255
const DESCRIPTION_MAX = 1000

/** What `POST /api/account/teams` and `PUT /api/account/teams/{id}` give: a team's name, description and permissions. */
export interface TeamInput {
  /** The team's name (trimmed, 1 to 255 characters). */
  readonly name: string
  /** What the team is for (at most 1,000 characters); null or empty: none. */
  readonly description?: string | null | undefined
  /** The permissions every member of the team holds (each kept once). */
  readonly permissions: ReadonlyArray<Permission>
}

/** The input checked: the name trimmed, an empty description none, each permission once. */
const checkTeamInput = (input: TeamInput) => {
  const errors: Record<string, Array<string>> = {}
  const name = laravelTrim(input.name)
  if (name === "") errors["name"] = [LaravelMessage.required("name")]
  else if (name.length > NAME_MAX) errors["name"] = [LaravelMessageMore.maxString("name", NAME_MAX)]
  const description = input.description == null || laravelTrim(input.description) === "" ? null : laravelTrim(input.description)
  if (description !== null && description.length > DESCRIPTION_MAX) {
    errors["description"] = [LaravelMessageMore.maxString("description", DESCRIPTION_MAX)]
  }
  return Object.keys(errors).length > 0
    ? Effect.fail(new ValidationFailed({ errors }))
    : Effect.succeed({ name, description, permissions: [...new Set(input.permissions)] })
}

/** The roster as it would be with the team's permissions (`permissions`) or members (`userIds`) changed; none: deleted. */
const withTeam = (
  roster: Roster,
  id: number,
  change: { readonly permissions?: ReadonlyArray<Permission>; readonly userIds?: ReadonlyArray<number> } | null
): Roster => ({
  teams: change === null
    ? roster.teams.filter((team) => team.id !== id)
    : roster.teams.map((team) => team.id === id && change.permissions !== undefined ? { ...team, permissions: change.permissions } : team),
  members: change?.userIds === undefined ? roster.members : roster.members.map((member) => {
    const joins = change.userIds!.includes(member.userId)
    const others = member.teamIds.filter((teamId) => teamId !== id)
    return { ...member, teamIds: joins ? [...others, id] : others }
  })
})

/** The team of the caller's account, or {@link NotFound}. */
const teamOf = (principal: Principal, id: number) =>
  Effect.flatMap(TeamRepository.use((teams) => teams.find(principal.accountId, id)), Option.match({
    onNone: () => Effect.fail(new NotFound()),
    onSome: Effect.succeed
  }))

/**
 * `GET /api/account/teams`: one page (`page`, `per_page`) of the account's teams, by id, each with
 * its permissions and its members' user ids. Needs `team-manage`.
 */
export const listTeams: (
  principal: Principal,
  query: ListQueryInput
) => Effect.Effect<Page<TeamDetails>, Forbidden | ValidationFailed, TeamRepository> = Effect.fn("listTeams")(
  function*(principal: Principal, query: ListQueryInput) {
    yield* authorize(principal, "team-manage")
    const page = yield* parsePageParams(query)
    const { items, total } = yield* TeamRepository.use((teams) =>
      teams.list(principal.accountId, { offset: pageOffset(page), limit: page.perPage })
    )
    return { items, total, ...page }
  }
)

/** `GET /api/account/teams/{id}`: one team of the account. Needs `team-manage`; another account's is {@link NotFound}. */
export const showTeam: (principal: Principal, id: number) => Effect.Effect<TeamDetails, Forbidden | NotFound, TeamRepository> =
  Effect.fn("showTeam")(function*(principal: Principal, id: number) {
    yield* authorize(principal, "team-manage")
    return yield* teamOf(principal, id)
  })

/**
 * `POST /api/account/teams`: a new team of the account, with no members, made by the caller.
 * Needs `team-manage`, and every permission given must be one the caller is allowed itself (else
 * {@link Forbidden} naming it).
 */
export const createTeam: (
  principal: Principal,
  input: TeamInput
) => Effect.Effect<TeamDetails, Forbidden | ValidationFailed, TeamRepository> = Effect.fn("createTeam")(
  function*(principal: Principal, input: TeamInput) {
    yield* authorize(principal, "team-manage")
    const checked = yield* checkTeamInput(input)
    yield* delegate(principal, checked.permissions)
    return yield* TeamRepository.use((teams) =>
      teams.add({ accountId: principal.accountId, madeBy: principal.userId, ...checked })
    )
  }
)

/**
 * `PUT /api/account/teams/{id}`: changes a team's name, description and permissions. Needs
 * `team-manage`; each permission added must be one the caller is allowed itself (else
 * {@link Forbidden}); removing `member-manage` from the last active members holding it fails
 * {@link ValidationFailed} on `permissions`.
 */
export const updateTeam: (
  principal: Principal,
  id: number,
  input: TeamInput
) => Effect.Effect<TeamDetails, Forbidden | NotFound | ValidationFailed, MemberRepository | TeamRepository | Transactor> = Effect
  .fn("updateTeam")(function*(principal: Principal, id: number, input: TeamInput) {
    yield* authorize(principal, "team-manage")
    const checked = yield* checkTeamInput(input)
    return yield* Transactor.use((transactor) =>
      transactor.transaction(Effect.gen(function*() {
        const roster = yield* MemberRepository.use((members) => members.roster(principal.accountId))
        const team = yield* teamOf(principal, id)
        yield* delegate(principal, checked.permissions.filter((permission) => !team.permissions.includes(permission)))
        yield* keepAManager(roster, withTeam(roster, id, { permissions: checked.permissions }), "permissions")
        const updated = yield* TeamRepository.use((teams) => teams.update(principal.accountId, id, checked))
        return Option.getOrThrow(updated)
      }))
    )
  })

/**
 * `DELETE /api/account/teams/{id}`: deletes a team; its members leave it. Needs `team-manage`;
 * fails {@link ValidationFailed} on `team` when it would leave no active member holding `member-manage`.
 */
export const deleteTeam: (
  principal: Principal,
  id: number
) => Effect.Effect<void, Forbidden | NotFound | ValidationFailed, MemberRepository | TeamRepository | Transactor> = Effect
  .fn("deleteTeam")(function*(principal: Principal, id: number) {
    yield* authorize(principal, "team-manage")
    yield* Transactor.use((transactor) =>
      transactor.transaction(Effect.gen(function*() {
        const roster = yield* MemberRepository.use((members) => members.roster(principal.accountId))
        yield* teamOf(principal, id)
        yield* keepAManager(roster, withTeam(roster, id, null), "team")
        yield* TeamRepository.use((teams) => teams.remove(principal.accountId, id))
      }))
    )
  })

/**
 * `PUT /api/account/teams/{id}/members`: makes the team's members exactly `userIds` (members of
 * the account, else {@link ValidationFailed} on `user_ids.N`). Needs `team-manage`; adding anyone
 * needs the caller to be allowed every permission of the team (else {@link Forbidden}); leaving
 * no active member holding `member-manage` fails {@link ValidationFailed} on `user_ids`.
 */
export const setTeamMembers: (
  principal: Principal,
  id: number,
  userIds: ReadonlyArray<number>
) => Effect.Effect<TeamDetails, Forbidden | NotFound | ValidationFailed, MemberRepository | TeamRepository | Transactor> = Effect
  .fn("setTeamMembers")(function*(principal: Principal, id: number, userIds: ReadonlyArray<number>) {
    yield* authorize(principal, "team-manage")
    return yield* Transactor.use((transactor) =>
      transactor.transaction(Effect.gen(function*() {
        const roster = yield* MemberRepository.use((members) => members.roster(principal.accountId))
        const team = yield* teamOf(principal, id)
        yield* requireAmong(memberIdsOf(roster), userIds, "user_ids")
        const wanted = [...new Set(userIds)]
        if (wanted.some((userId) => !team.user_ids.includes(userId))) yield* delegate(principal, team.permissions)
        yield* keepAManager(roster, withTeam(roster, id, { userIds: wanted }), "user_ids")
        const teams = yield* TeamRepository
        yield* teams.setMembers(principal.accountId, id, wanted)
        return Option.getOrThrow(yield* teams.find(principal.accountId, id))
      }))
    )
  })
