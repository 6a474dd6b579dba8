/**
 * Reading and altering the `MemoryStore` of `@wasl/adapters` directly, for
 * states the use-cases cannot reach on their own (suspended or removed
 * memberships, stored preferences, unread notifications, deleted accounts).
 */
import {
  mapDelete,
  mapSet,
  membershipKey,
  type MemoryState,
  MemoryStore,
  type NotificationRow,
  type PreferenceRow,
  readStore,
  updateStore
} from "@wasl/adapters/memory"
import { DateTime, Effect } from "effect"
import type { Membership, NotificationPreference } from "../../src/Accounts.ts"

/** The current rows. */
export const memoryState: Effect.Effect<MemoryState, never, MemoryStore> = MemoryStore.use((store) =>
  readStore(store, (state) => state)
)

const update = (f: (state: MemoryState) => MemoryState): Effect.Effect<void, never, MemoryStore> =>
  MemoryStore.use((store) => updateStore(store, (state) => [undefined, f(state)] as const))

export const setMembershipStatus = (accountId: number, userId: number, status: Membership["status"]) =>
  update((state) => {
    const key = membershipKey(accountId, userId)
    const row = state.memberships.get(key)
    if (row === undefined) throw new Error(`no membership ${key}`)
    return { ...state, memberships: mapSet(state.memberships, key, { ...row, status }) }
  })

export const removeMembership = (accountId: number, userId: number) =>
  update((state) => ({ ...state, memberships: mapDelete(state.memberships, membershipKey(accountId, userId)) }))

/** Deletes the account row and its subscription, leaving everything else (memberships, teams…) in place. */
export const removeAccount = (accountId: number) =>
  update((state) => ({
    ...state,
    accounts: mapDelete(state.accounts, accountId),
    subscriptions: mapDelete(state.subscriptions, accountId)
  }))

/** Deletes the account's subscription only: a broken invariant (every account has one). */
export const removeSubscription = (accountId: number) =>
  update((state) => ({ ...state, subscriptions: mapDelete(state.subscriptions, accountId) }))

/** Replaces the user's stored preferences in the account (an `id` is kept, else allocated). */
export const setPreferences = (
  accountId: number,
  userId: number,
  preferences: ReadonlyArray<NotificationPreference>
) =>
  Effect.flatMap(DateTime.now, (now) =>
    update((state) => {
      let next = state.sequences.preferences
      const rows = preferences.map((p): PreferenceRow => {
        const id = p.id ?? next
        next = Math.max(next, id + 1)
        return {
          id,
          accountId,
          userId,
          name: p.name,
          stored: p.stored,
          popup: p.popup,
          browser: p.browser,
          email: p.email,
          createdAt: now,
          updatedAt: now
        }
      })
      return {
        ...state,
        sequences: { ...state.sequences, preferences: next },
        preferences: [
          ...state.preferences.filter((row) => row.accountId !== accountId || row.userId !== userId),
          ...rows
        ]
      }
    }))

/** Makes the user's unread notifications in the account exactly `count` (the read ones are left alone). */
export const setUnread = (accountId: number, userId: number, count: number) =>
  Effect.flatMap(DateTime.now, (now) =>
    update((state) => {
      const first = state.sequences.notifications
      const rows = Array.from({ length: count }, (_, i): NotificationRow => ({
        id: first + i,
        accountId,
        userId,
        type: "test",
        data: {},
        readAt: null,
        createdAt: now
      }))
      return {
        ...state,
        sequences: { ...state.sequences, notifications: first + count },
        notifications: [
          ...state.notifications.filter((row) =>
            row.accountId !== accountId || row.userId !== userId || row.readAt !== null
          ),
          ...rows
        ]
      }
    }))
