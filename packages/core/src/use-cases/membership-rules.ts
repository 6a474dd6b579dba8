/**
 * The two rules every change of who holds what in an account obeys: nobody grants a permission
 * they do not hold themselves, and the account always keeps an active member holding
 * `member-manage` (else nobody could manage its members again).
 */
import { Effect } from "effect"
import { holdersOf, type Roster } from "../account/member.ts"
import type { Permission } from "../auth/permission.ts"
import { demand } from "../auth/caller-check.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, invalid, ValidationFailed } from "../errors.ts"

/** The message of the refusal to leave the account without an active member holding `member-manage`. */
export const LAST_MANAGER_MESSAGE = "The account must keep at least one active member holding member-manage."

/**
 * Fails {@link ValidationFailed} under `key` when `after` leaves the account with no active member
 * holding `member-manage` while `before` had one.
 */
export const keepAManager = (before: Roster, after: Roster, key: string): Effect.Effect<void, ValidationFailed> =>
  holdersOf(after, "member-manage").size === 0 && holdersOf(before, "member-manage").size > 0
    ? Effect.fail(invalid(key, LAST_MANAGER_MESSAGE))
    : Effect.void

/** Fails {@link Forbidden} naming the first of `permissions` the principal is not allowed itself. */
export const delegate = (principal: Principal, permissions: Iterable<Permission>): Effect.Effect<void, Forbidden> =>
  Effect.forEach([...new Set(permissions)], (permission) => demand(principal, { _tag: "Delegate", permission }), {
    discard: true
  })

/** The permissions a member gains by joining `teamIds` (teams of the roster, the others ignored). */
export const permissionsOfTeams = (roster: Roster, teamIds: Iterable<number>): ReadonlyArray<Permission> => {
  const wanted = new Set(teamIds)
  return roster.teams.filter((team) => wanted.has(team.id)).flatMap((team) => team.permissions)
}

/**
 * Fails {@link ValidationFailed} on `<key>.<n>` for each of `ids` not in `known` (teams of the
 * account, members of it), with Laravel's `exists` message.
 */
export const requireAmong = (
  known: ReadonlySet<number>,
  ids: ReadonlyArray<number>,
  key: string
): Effect.Effect<void, ValidationFailed> => {
  const errors: Record<string, Array<string>> = {}
  ids.forEach((id, n) => {
    if (!known.has(id)) errors[`${key}.${n}`] = [`The selected ${key}.${n} is invalid.`]
  })
  return Object.keys(errors).length === 0 ? Effect.void : Effect.fail(new ValidationFailed({ errors }))
}

/** The ids of the roster's teams. */
export const teamIdsOf = (roster: Roster): ReadonlySet<number> => new Set(roster.teams.map((team) => team.id))

/** The ids of the roster's members. */
export const memberIdsOf = (roster: Roster): ReadonlySet<number> => new Set(roster.members.map((member) => member.userId))
