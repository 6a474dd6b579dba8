import { type NewTeam, type Team, type TeamDetails, TeamRepository } from "@wasl/core/Accounts"
import { DateTime, Effect, Layer, Option } from "effect"
import {
  mapDelete,
  mapSet,
  membershipKey,
  type MemoryState,
  MemoryStore,
  readStore,
  requireMembership,
  type TeamRow,
  type TeamUserRow,
  updateStore
} from "./store.ts"

const toTeam = (team: TeamRow, pivot: TeamUserRow): Team => ({
  id: team.id,
  name: team.name,
  description: team.description,
  made_by: team.madeBy,
  created_at: team.createdAt,
  updated_at: team.updatedAt,
  account_id: team.accountId,
  pivot: { user_id: pivot.userId, team_id: pivot.teamId, created_at: pivot.createdAt, updated_at: pivot.updatedAt },
  permissions: team.permissions
})

const detailsOf = (state: MemoryState, team: TeamRow): TeamDetails => ({
  id: team.id,
  account_id: team.accountId,
  name: team.name,
  description: team.description,
  made_by: team.madeBy,
  permissions: team.permissions,
  user_ids: state.teamUsers
    .filter((pivot) => pivot.accountId === team.accountId && pivot.teamId === team.id)
    .map((pivot) => pivot.userId)
    .sort((a, b) => a - b),
  created_at: team.createdAt,
  updated_at: team.updatedAt
})

const teamIn = (state: MemoryState, accountId: number, id: number): TeamRow | undefined => {
  const team = state.teams.get(id)
  return team?.accountId === accountId ? team : undefined
}

/**
 * The account's team pivots with `userId`'s (or, with `teamId`, that team's) made exactly `wanted`:
 * a pivot that stays is kept as it is. Internal plumbing of the memory adapters.
 */
export const replacePivots = (
  state: MemoryState,
  accountId: number,
  side: { readonly userId: number } | { readonly teamId: number },
  wanted: ReadonlyArray<number>,
  now: DateTime.Utc
): ReadonlyArray<TeamUserRow> => {
  const ids = new Set(wanted)
  const mine = (pivot: TeamUserRow) =>
    pivot.accountId === accountId && ("userId" in side ? pivot.userId === side.userId : pivot.teamId === side.teamId)
  const other = (pivot: TeamUserRow) => "userId" in side ? pivot.teamId : pivot.userId
  const kept = state.teamUsers.filter((pivot) => !mine(pivot) || ids.has(other(pivot)))
  const present = new Set(kept.filter(mine).map(other))
  const added = [...ids].filter((id) => !present.has(id)).map((id): TeamUserRow => {
    const userId = "userId" in side ? side.userId : id
    requireMembership(state, accountId, userId, "team_user")
    return { accountId, teamId: "teamId" in side ? side.teamId : id, userId, createdAt: now, updatedAt: now }
  })
  return [...kept, ...added]
}

/** A new team of the account, with the next id, as `INSERT INTO teams` makes it (the account must exist). */
const insertTeam = (
  state: MemoryState,
  input: NewTeam,
  now: DateTime.Utc
): readonly [TeamRow, MemoryState] => {
  if (!state.accounts.has(input.accountId)) {
    throw new Error(`insert on table "teams" violates foreign key constraint: account ${input.accountId}`)
  }
  const id = state.sequences.teams
  const team: TeamRow = {
    id,
    accountId: input.accountId,
    name: input.name,
    description: input.description,
    madeBy: input.madeBy,
    permissions: [...new Set(input.permissions)],
    createdAt: now,
    updatedAt: now
  }
  return [team, { ...state, sequences: { ...state.sequences, teams: id + 1 }, teams: mapSet(state.teams, id, team) }]
}

/** Teams and their members in the memory store; the twin of `TeamRepositoryPg`. */
export const TeamRepositoryMemory: Layer.Layer<TeamRepository, never, MemoryStore> = Layer.effect(
  TeamRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore

    const create = Effect.fnUntraced(function*(
      input: Parameters<TeamRepository["Service"]["create"]>[0],
      members: ReadonlyArray<number>
    ) {
      const now = yield* DateTime.now
      return yield* updateStore(store, (state) => {
        const [team, withTeam] = insertTeam(state, input, now)
        const pivots = [...new Set(members)].map((userId): TeamUserRow => {
          requireMembership(state, input.accountId, userId, "team_user")
          return { accountId: input.accountId, teamId: team.id, userId, createdAt: now, updatedAt: now }
        })
        const pivot = pivots[0] ?? teamWithoutMembers(input.accountId)
        return [toTeam(team, pivot), { ...withTeam, teamUsers: [...state.teamUsers, ...pivots] }] as const
      })
    })

    const add = Effect.fnUntraced(function*(input: Parameters<TeamRepository["Service"]["add"]>[0]) {
      const now = yield* DateTime.now
      return yield* updateStore(store, (state) => {
        const [team, next] = insertTeam(state, input, now)
        return [detailsOf(next, team), next] as const
      })
    })

    const update = Effect.fnUntraced(function*(
      accountId: number,
      id: number,
      changes: Parameters<TeamRepository["Service"]["update"]>[2]
    ) {
      const now = yield* DateTime.now
      return yield* updateStore(store, (state) => {
        const team = teamIn(state, accountId, id)
        if (team === undefined) return [Option.none<TeamDetails>(), state] as const
        const changed: TeamRow = { ...team, ...changes, permissions: [...new Set(changes.permissions)], updatedAt: now }
        const next = { ...state, teams: mapSet(state.teams, id, changed) }
        return [Option.some(detailsOf(next, changed)), next] as const
      })
    })

    const setMembers = Effect.fnUntraced(function*(accountId: number, id: number, userIds: ReadonlyArray<number>) {
      const now = yield* DateTime.now
      yield* updateStore(store, (state) => {
        if (teamIn(state, accountId, id) === undefined) return [undefined, state] as const
        return [undefined, { ...state, teamUsers: replacePivots(state, accountId, { teamId: id }, userIds, now) }] as const
      })
    })

    return TeamRepository.of({
      add,
      update,
      setMembers,
      list: (accountId, page) =>
        readStore(store, (state) => {
          const all = [...state.teams.values()].filter((team) => team.accountId === accountId).sort((a, b) => a.id - b.id)
          return {
            items: all.slice(page.offset, page.offset + page.limit).map((team) => detailsOf(state, team)),
            total: all.length
          }
        }),
      find: (accountId, id) =>
        readStore(store, (state) => Option.map(Option.fromNullishOr(teamIn(state, accountId, id)), (team) => detailsOf(state, team))),
      remove: (accountId, id) =>
        updateStore(store, (state) => {
          if (teamIn(state, accountId, id) === undefined) return [false, state] as const
          return [true, {
            ...state,
            teams: mapDelete(state.teams, id),
            teamUsers: state.teamUsers.filter((pivot) => !(pivot.accountId === accountId && pivot.teamId === id))
          }] as const
        }),
      create,
      listForUser: (accountId, userId) =>
        readStore(store, (state) =>
          state.teamUsers
            .filter((pivot) => pivot.accountId === accountId && pivot.userId === userId)
            .flatMap((pivot) => {
              const team = state.teams.get(pivot.teamId)
              return team === undefined || team.accountId !== accountId ? [] : [toTeam(team, pivot)]
            })
            .sort((a, b) => a.id - b.id)),
      grantsOf: (accountId, userId) =>
        readStore(store, (state) => {
          const membership = state.memberships.get(membershipKey(accountId, userId))
          if (membership === undefined || membership.status !== "active") return Option.none()
          const permissions = state.teamUsers
            .filter((pivot) => pivot.accountId === accountId && pivot.userId === userId)
            .flatMap((pivot) => state.teams.get(pivot.teamId)?.permissions ?? [])
          return Option.some([...new Set(permissions)])
        })
    })
  })
)

/** `Team` carries one member's pivot, so a team created without members has none to return. */
export const teamWithoutMembers = (accountId: number): never => {
  throw new Error(`TeamRepository.create in account ${accountId}: a team needs at least one member (Team carries a pivot)`)
}
