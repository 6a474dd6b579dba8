import { type Member, MemberRepository, type Roster } from "@wasl/core/Accounts"
import { formatSqlDateTime } from "@wasl/core/Wire"
import { DateTime, Effect, Layer, Option } from "effect"
import { mapDelete, mapSet, membershipKey, type MembershipRow, type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"
import { replacePivots } from "./team-repository-memory.ts"

const memberOf = (state: MemoryState, row: MembershipRow): Member => {
  const user = state.users.get(row.userId)!.user
  return {
    user: { id: user.id, email: user.email, firstname: user.firstname, lastname: user.lastname, image: user.image },
    status: row.status,
    teams: state.teamUsers
      .filter((pivot) => pivot.accountId === row.accountId && pivot.userId === row.userId)
      .flatMap((pivot) => {
        const team = state.teams.get(pivot.teamId)
        return team === undefined ? [] : [{ id: team.id, name: team.name }]
      })
      .sort((a, b) => a.id - b.id),
    last_used: row.lastUsed === null ? null : formatSqlDateTime(row.lastUsed),
    created_at: row.createdAt
  }
}

/** The account's memberships by when they were made, then by user: the PG twin's order. */
const membershipsOf = (state: MemoryState, accountId: number): ReadonlyArray<MembershipRow> =>
  [...state.memberships.values()]
    .filter((row) => row.accountId === accountId)
    .sort((a, b) => DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) || a.userId - b.userId)

/** An account's members in the memory store; the twin of `MemberRepositoryPg` (removal cascades as its foreign keys do). */
export const MemberRepositoryMemory: Layer.Layer<MemberRepository, never, MemoryStore> = Layer.effect(
  MemberRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return MemberRepository.of({
      list: (accountId, page) =>
        readStore(store, (state) => {
          const all = membershipsOf(state, accountId)
          return { items: all.slice(page.offset, page.offset + page.limit).map((row) => memberOf(state, row)), total: all.length }
        }),
      find: (accountId, userId) =>
        readStore(store, (state) =>
          Option.map(Option.fromNullishOr(state.memberships.get(membershipKey(accountId, userId))), (row) => memberOf(state, row))),
      roster: (accountId) =>
        readStore(store, (state): Roster => ({
          members: membershipsOf(state, accountId)
            .map((row) => ({
              userId: row.userId,
              status: row.status,
              teamIds: state.teamUsers
                .filter((pivot) => pivot.accountId === accountId && pivot.userId === row.userId)
                .map((pivot) => pivot.teamId)
            }))
            .sort((a, b) => a.userId - b.userId),
          teams: [...state.teams.values()]
            .filter((team) => team.accountId === accountId)
            .sort((a, b) => a.id - b.id)
            .map((team) => ({ id: team.id, permissions: team.permissions }))
        })),
      setStatus: (accountId, userId, status) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const key = membershipKey(accountId, userId)
            const row = state.memberships.get(key)
            if (row === undefined) return [undefined, state] as const
            return [undefined, { ...state, memberships: mapSet(state.memberships, key, { ...row, status, updatedAt: now }) }] as const
          })),
      setTeams: (accountId, userId, teamIds) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            if (teamIds.some((id) => state.teams.get(id)?.accountId !== accountId)) {
              throw new Error(`insert on table "team_user" violates foreign key constraint: a team not of account ${accountId}`)
            }
            return [undefined, { ...state, teamUsers: replacePivots(state, accountId, { userId }, teamIds, now) }] as const
          })),
      remove: (accountId, userId) =>
        updateStore(store, (state) => {
          const key = membershipKey(accountId, userId)
          if (!state.memberships.has(key)) return [false, state] as const
          const others = <R extends { readonly accountId: number; readonly userId: number }>(row: R) =>
            !(row.accountId === accountId && row.userId === userId)
          return [true, {
            ...state,
            memberships: mapDelete(state.memberships, key),
            teamUsers: state.teamUsers.filter(others),
            tokens: new Map([...state.tokens].filter(([, token]) => others(token))),
            sessions: new Map([...state.sessions].filter(([, session]) => others(session))),
            preferences: state.preferences.filter(others),
            notifications: state.notifications.filter(others),
            viewChoices: state.viewChoices.filter(others)
          }] as const
        })
    })
  })
)
