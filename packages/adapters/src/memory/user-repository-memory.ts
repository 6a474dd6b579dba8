import { type Membership, type User, UserRepository } from "@wasl/core/Accounts"
import { invalid, type ValidationFailed } from "@wasl/core/Errors"
import { formatSqlDateTime } from "@wasl/core/Wire"
import { DateTime, Effect, Layer, Option, Result } from "effect"
import { EMAIL_TAKEN } from "../repository-semantics.ts"
import {
  mapSet,
  membershipKey,
  type MembershipRow,
  type MemoryState,
  MemoryStore,
  modifyStore,
  noTwoFactor,
  readStore,
  updateStore,
  type UserRow
} from "./store.ts"

/** A membership row as the API's `Membership`. Internal plumbing of the memory adapters. */
export const toMembership = (row: MembershipRow): Membership => ({
  user_id: row.userId,
  account_id: row.accountId,
  status: row.status,
  last_used: row.lastUsed === null ? null : formatSqlDateTime(row.lastUsed),
  timeZone: row.timeZone,
  calendar: row.calendar,
  hour12: row.hour12,
  locale: row.locale,
  currency: row.currency,
  created_at: row.createdAt,
  updated_at: row.updatedAt
})

/** last_used desc nulls last, then account_id: the PG twin's ORDER BY. */
const byMostRecentlyUsed = (a: MembershipRow, b: MembershipRow): number => {
  if (a.lastUsed !== null && b.lastUsed !== null) {
    const diff = DateTime.toEpochMillis(b.lastUsed) - DateTime.toEpochMillis(a.lastUsed)
    if (diff !== 0) return diff
  } else if (a.lastUsed !== null) {
    return -1
  } else if (b.lastUsed !== null) {
    return 1
  }
  return a.accountId - b.accountId
}

/**
 * Users and memberships in the memory store; the twin of `UserRepositoryPg`: a taken e-mail
 * (compared without regard to case) is a `ValidationFailed` on `email`.
 */
export const UserRepositoryMemory: Layer.Layer<UserRepository, never, MemoryStore> = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore

    const create = Effect.fnUntraced(function*(input: Parameters<UserRepository["Service"]["create"]>[0]) {
      const now = yield* DateTime.now
      return yield* modifyStore(store, (state) => {
        const email = input.email.toLowerCase()
        for (const row of state.users.values()) {
          if (row.user.email.toLowerCase() === email) return Result.fail(invalid("email", EMAIL_TAKEN))
        }
        const id = state.sequences.users
        const user: User = {
          id,
          email: input.email,
          email_verified_at: null,
          firstname: input.firstname,
          lastname: input.lastname,
          image: null,
          locale: "en",
          contacts_view_id: null,
          deals_view_id: null,
          tickets_view_id: null,
          change_email_to: null,
          two_factor_confirmed_at: null,
          created_at: now,
          updated_at: now
        }
        return Result.succeed([user, {
          ...state,
          sequences: { ...state.sequences, users: id + 1 },
          users: mapSet(state.users, id, { user, passwordHash: input.passwordHash, twoFactor: noTwoFactor })
        }] as const)
      })
    })

    const addMembership = Effect.fnUntraced(function*(accountId: number, userId: number) {
      const now = yield* DateTime.now
      return yield* updateStore(store, (state) => {
        const key = membershipKey(accountId, userId)
        const existing = state.memberships.get(key)
        if (existing !== undefined) return [toMembership(existing), state] as const
        if (!state.accounts.has(accountId) || !state.users.has(userId)) {
          throw new Error(`insert on table "account_user" violates foreign key constraint: (${accountId}, ${userId})`)
        }
        const row: MembershipRow = {
          accountId,
          userId,
          status: "active",
          lastUsed: null,
          timeZone: "UTC",
          calendar: null,
          hour12: false,
          locale: null,
          currency: null,
          createdAt: now,
          updatedAt: now
        }
        return [toMembership(row), { ...state, memberships: mapSet(state.memberships, key, row) }] as const
      })
    })

    const touch = (accountId: number, userId: number, after: DateTime.Utc | undefined) =>
      Effect.flatMap(DateTime.now, (now) =>
        updateStore(store, (state) => {
          const key = membershipKey(accountId, userId)
          const row = state.memberships.get(key)
          if (row === undefined) return [undefined, state] as const
          if (after !== undefined && row.lastUsed !== null && DateTime.isGreaterThan(row.lastUsed, after)) {
            return [undefined, state] as const
          }
          return [undefined, { ...state, memberships: mapSet(state.memberships, key, { ...row, lastUsed: now }) }] as const
        }))

    /** Changes the user's row as `f` answers (undefined: unchanged); `none` when there is no such user. */
    const changeUser = <A, E = never>(
      id: number,
      f: (row: UserRow, state: MemoryState) => Result.Result<readonly [A, UserRow | undefined], E>,
      none: A
    ): Effect.Effect<A, E> =>
      modifyStore(store, (state) => {
        const row = state.users.get(id)
        if (row === undefined) return Result.succeed([none, state] as const)
        return Result.map(f(row, state), ([answer, next]) =>
          [answer, next === undefined ? state : { ...state, users: mapSet(state.users, id, next) }] as const)
      })

    const setEmail = (id: number, email: string, verifiedAt: DateTime.Utc) =>
      Effect.flatMap(DateTime.now, (now) =>
        changeUser<Option.Option<User>, ValidationFailed>(id, (row, state) => {
          const wanted = email.toLowerCase()
          for (const other of state.users.values()) {
            if (other.user.id !== id && other.user.email.toLowerCase() === wanted) return Result.fail(invalid("email", EMAIL_TAKEN))
          }
          const user: User = { ...row.user, email, email_verified_at: verifiedAt, change_email_to: null, updated_at: now }
          return Result.succeed([Option.some(user), { ...row, user }] as const)
        }, Option.none<User>()))

    return UserRepository.of({
      create,
      findById: (id) => readStore(store, (state) => Option.fromNullishOr(state.users.get(id)?.user)),
      findByEmail: (email) =>
        readStore(store, (state) => {
          const wanted = email.toLowerCase()
          for (const row of state.users.values()) {
            if (row.user.email.toLowerCase() === wanted) return Option.some({ user: row.user, passwordHash: row.passwordHash })
          }
          return Option.none()
        }),
      findPasswordHash: (id) => readStore(store, (state) => Option.fromNullishOr(state.users.get(id)?.passwordHash)),
      setProfile: (id, profile) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const row = state.users.get(id)
            if (row === undefined) return [Option.none(), state] as const
            const user: User = { ...row.user, ...profile, updated_at: now }
            return [Option.some(user), { ...state, users: mapSet(state.users, id, { ...row, user }) }] as const
          })),
      setPasswordHash: (id, passwordHash) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const row = state.users.get(id)
            if (row === undefined) return [undefined, state] as const
            const next = { ...row, passwordHash, user: { ...row.user, updated_at: now } }
            return [undefined, { ...state, users: mapSet(state.users, id, next) }] as const
          })),
      addMembership,
      findMembership: (accountId, userId) =>
        readStore(store, (state) =>
          Option.map(Option.fromNullishOr(state.memberships.get(membershipKey(accountId, userId))), toMembership)),
      listMemberships: (userId) =>
        readStore(store, (state) =>
          [...state.memberships.values()]
            .filter((row) => row.userId === userId && row.status === "active")
            .sort(byMostRecentlyUsed)
            .map(toMembership)),
      touchMembership: (accountId, userId) => touch(accountId, userId, undefined),
      touchMembershipUnlessSince: touch,
      setMemberPreferences: (accountId, userId, preferences) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const key = membershipKey(accountId, userId)
            const row = state.memberships.get(key)
            if (row === undefined) return [Option.none(), state] as const
            const next: MembershipRow = { ...row, ...preferences, updatedAt: now }
            return [Option.some(toMembership(next)), { ...state, memberships: mapSet(state.memberships, key, next) }] as const
          })),
      setChangeEmailTo: (id, email) =>
        Effect.flatMap(DateTime.now, (now) =>
          changeUser(id, (row) =>
            Result.succeed([undefined, { ...row, user: { ...row.user, change_email_to: email, updated_at: now } }] as const), undefined)),
      setEmail,
      markEmailVerified: (id, email, verifiedAt) =>
        Effect.flatMap(DateTime.now, (now) =>
          changeUser(id, (row) =>
            row.user.email.toLowerCase() !== email.toLowerCase()
              ? Result.succeed([false, undefined] as const)
              : Result.succeed([true, { ...row, user: { ...row.user, email_verified_at: verifiedAt, updated_at: now } }] as const), false))
    })
  })
)
