import { type Team, TeamRepository } from "@wasl/core"
import { DateTime, Effect, Layer, Option } from "effect"
import { mapSet, membershipKey, MemoryStore, readStore, requireMembership, type TeamRow, type TeamUserRow, updateStore } from "./store.ts"

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
        const pivots = [...new Set(members)].map((userId): TeamUserRow => {
          requireMembership(state, input.accountId, userId, "team_user")
          return { accountId: input.accountId, teamId: id, userId, createdAt: now, updatedAt: now }
        })
        const pivot = pivots[0] ?? teamWithoutMembers(input.accountId)
        return [toTeam(team, pivot), {
          ...state,
          sequences: { ...state.sequences, teams: id + 1 },
          teams: mapSet(state.teams, id, team),
          teamUsers: [...state.teamUsers, ...pivots]
        }] as const
      })
    })

    return TeamRepository.of({
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
