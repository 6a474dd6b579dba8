/** The account's members, managed by members holding `member-manage`. */
import { DateTime, Effect, Option } from "effect"
import type { Invitation } from "../account/invitation.ts"
import { InvitationRepository } from "../account/invitation-repository.ts"
import type { InvitedMember, Member, MemberEntry, Roster } from "../account/member.ts"
import { MemberRepository } from "../account/member-repository.ts"
import { TeamRepository } from "../account/team-repository.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, NotFound, type ValidationFailed } from "../errors.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { type Page, pageOffset, parsePageParams } from "../records/pagination.ts"
import { Transactor } from "../transactor.ts"
import { authorize } from "./authenticate.ts"
import { delegate, keepAManager, permissionsOfTeams, requireAmong, teamIdsOf } from "./membership-rules.ts"

/** What `PUT /api/account/members/{user_id}` changes; a field left out stays as it is. */
export interface MemberChanges {
  /** `suspended`: none of the member's sessions and tokens works in the account until it is `active` again. */
  readonly status?: "active" | "suspended" | undefined
  /** The member's teams, exactly (teams of the account). */
  readonly team_ids?: ReadonlyArray<number> | undefined
}

/** The member of the roster with `userId`, changed; the others as they are. */
const withMember = (roster: Roster, userId: number, change: MemberChanges | null): Roster => ({
  teams: roster.teams,
  members: change === null
    ? roster.members.filter((member) => member.userId !== userId)
    : roster.members.map((member) =>
      member.userId !== userId ? member : {
        userId,
        status: change.status ?? member.status,
        teamIds: change.team_ids ?? member.teamIds
      }
    )
})

/** The member of the caller's account, or {@link NotFound}. */
const memberOf = (principal: Principal, userId: number) =>
  Effect.flatMap(MemberRepository.use((members) => members.find(principal.accountId, userId)), Option.match({
    onNone: () => Effect.fail(new NotFound()),
    onSome: Effect.succeed
  }))

/**
 * The principal of an active member acting without a token or session (an operator's command
 * line acting as that member): the member's current permissions, no abilities of its own, as a
 * session would have. Fails {@link NotFound} when the user is not an active member of the account.
 */
export const actingMember: (accountId: number, userId: number) => Effect.Effect<Principal, NotFound, TeamRepository> = Effect
  .fn("actingMember")(function*(accountId: number, userId: number) {
    const grants = yield* TeamRepository.use((teams) => teams.grantsOf(accountId, userId))
    if (Option.isNone(grants)) return yield* new NotFound()
    return {
      kind: "session",
      accountId,
      userId,
      permissions: new Set(grants.value),
      abilities: null,
      tokenId: null,
      sessionId: null
    } satisfies Principal as Principal
  })

/** The invitations as the members list shows them, their teams named (a team deleted since is left out). */
const invitedMembers = (accountId: number, invitations: ReadonlyArray<Invitation>) =>
  Effect.gen(function*() {
    const teams = yield* TeamRepository
    const ids = [...new Set(invitations.flatMap((invitation) => invitation.team_ids))]
    const found = yield* Effect.forEach(ids, (id) => teams.find(accountId, id))
    const names = new Map(found.flatMap((team) => Option.isSome(team) ? [[team.value.id, team.value.name] as const] : []))
    return invitations.map((invitation): InvitedMember => ({
      user: null,
      email: invitation.email,
      status: "invited",
      teams: invitation.team_ids.flatMap((id) => names.has(id) ? [{ id, name: names.get(id)! }] : []),
      last_used: null,
      invitation_id: invitation.id,
      expires_at: invitation.expires_at,
      created_at: invitation.created_at
    }))
  })

/**
 * `GET /api/account/members`: one page (`page`, `per_page`) of the account's members (active and
 * suspended), by when they joined, then of the people invited who have not accepted yet
 * (`invited`, as `GET /api/account/invitations` lists them: newest first): each member's user,
 * status, teams and last use of the account; each invitee's address, teams and invitation. Needs
 * `member-manage`.
 */
export const listMembers: (
  principal: Principal,
  query: ListQueryInput
) => Effect.Effect<
  Page<MemberEntry>,
  Forbidden | ValidationFailed,
  InvitationRepository | MemberRepository | TeamRepository
> = Effect.fn("listMembers")(function*(principal: Principal, query: ListQueryInput) {
  yield* authorize(principal, "member-manage")
  const page = yield* parsePageParams(query)
  const offset = pageOffset(page)
  const members = yield* MemberRepository.use((repo) => repo.list(principal.accountId, { offset, limit: page.perPage }))
  // The invitees follow the members: this page holds those of them that fit after its members.
  const now = yield* DateTime.now
  const invitations = yield* InvitationRepository.use((repo) =>
    repo.listPending(principal.accountId, now, {
      offset: Math.max(0, offset - members.total),
      limit: page.perPage - members.items.length
    })
  )
  const invited = yield* invitedMembers(principal.accountId, invitations.items)
  return { items: [...members.items, ...invited], total: members.total + invitations.total, ...page }
})

/**
 * `PUT /api/account/members/{user_id}`: suspends or reactivates a member, and/or makes its teams
 * exactly `team_ids` (teams of the account, else {@link ValidationFailed} on `team_ids.N`). Needs
 * `member-manage`; every permission the member gains through a team it joins must be one the
 * caller is allowed itself (else {@link Forbidden} naming it). Leaving the account with no active
 * member holding `member-manage` fails {@link ValidationFailed} on `status` or `team_ids`. A
 * suspended member's sessions and tokens stop working in the account at once.
 */
export const updateMember: (
  principal: Principal,
  userId: number,
  changes: MemberChanges
) => Effect.Effect<Member, Forbidden | NotFound | ValidationFailed, MemberRepository | Transactor> = Effect.fn(
  "updateMember"
)(function*(principal: Principal, userId: number, changes: MemberChanges) {
  yield* authorize(principal, "member-manage")
  return yield* Transactor.use((transactor) =>
    transactor.transaction(Effect.gen(function*() {
      const members = yield* MemberRepository
      const roster = yield* members.roster(principal.accountId)
      const current = roster.members.find((member) => member.userId === userId)
      if (current === undefined) return yield* new NotFound()
      if (changes.team_ids !== undefined) {
        yield* requireAmong(teamIdsOf(roster), changes.team_ids, "team_ids")
        const joined = changes.team_ids.filter((id) => !current.teamIds.includes(id))
        yield* delegate(principal, permissionsOfTeams(roster, joined))
      }
      yield* keepAManager(roster, withMember(roster, userId, changes), changes.status === "suspended" ? "status" : "team_ids")
      if (changes.team_ids !== undefined) yield* members.setTeams(principal.accountId, userId, [...new Set(changes.team_ids)])
      if (changes.status !== undefined && changes.status !== current.status) {
        yield* members.setStatus(principal.accountId, userId, changes.status)
      }
      return yield* memberOf(principal, userId)
    }))
  )
})

/**
 * `DELETE /api/account/members/{user_id}`: removes the member from the account (the user stays,
 * with its other accounts); its sessions and tokens there stop working at once. Needs
 * `member-manage`; removing the last active member holding `member-manage` fails
 * {@link ValidationFailed} on `user_id`. Another account's member is {@link NotFound}.
 */
export const removeMember: (
  principal: Principal,
  userId: number
) => Effect.Effect<void, Forbidden | NotFound | ValidationFailed, MemberRepository | Transactor> = Effect.fn("removeMember")(
  function*(principal: Principal, userId: number) {
    yield* authorize(principal, "member-manage")
    yield* Transactor.use((transactor) =>
      transactor.transaction(Effect.gen(function*() {
        const members = yield* MemberRepository
        const roster = yield* members.roster(principal.accountId)
        if (!roster.members.some((member) => member.userId === userId)) return yield* new NotFound()
        yield* keepAManager(roster, withMember(roster, userId, null), "user_id")
        yield* members.remove(principal.accountId, userId)
      }))
    )
  }
)
