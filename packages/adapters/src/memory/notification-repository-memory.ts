import { type NotificationName, type NotificationPreference } from "@wasl/core/Accounts"
import { type Notification, NotificationRepository } from "@wasl/core/Notifications"
import { Effect, Layer, Option, PubSub } from "effect"
import { afterCommit } from "./after-commit.ts"
import {
  membershipKey,
  MemoryStore,
  type MemoryState,
  type NotificationRow,
  type PreferenceRow,
  readStore,
  requireMembership,
  updateStore
} from "./store.ts"

/** A preference row as the API's `NotificationPreference`. Internal plumbing of the memory adapters. */
export const toPreference = (row: PreferenceRow): NotificationPreference => ({
  name: row.name,
  stored: row.stored,
  popup: row.popup,
  browser: row.browser,
  email: row.email,
  id: row.id,
  user_id: row.userId,
  account_id: row.accountId,
  created_at: row.createdAt,
  updated_at: row.updatedAt
})

const isStored = (row: NotificationRow) => row.stored ?? true

const isLive = (row: NotificationRow) => (row.popup ?? true) || (row.browser ?? true)

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  type: row.type as NotificationName,
  data: (row.data ?? {}) as Record<string, unknown>,
  popup: row.popup ?? true,
  browser: row.browser ?? true,
  read_at: row.readAt,
  created_at: row.createdAt,
  updated_at: row.updatedAt ?? row.createdAt
})

const ownStored = (state: MemoryState, accountId: number, userId: number) =>
  state.notifications.filter((row) => row.accountId === accountId && row.userId === userId && isStored(row))

/** Notification preferences, notifications and their mail queue in the memory store; the twin of `NotificationRepositoryPg`. */
export const NotificationRepositoryMemory: Layer.Layer<NotificationRepository, never, MemoryStore> = Layer.effect(
  NotificationRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return NotificationRepository.of({
      listPreferences: (accountId, userId) =>
        readStore(store, (state) =>
          state.preferences
            .filter((row) => row.accountId === accountId && row.userId === userId)
            .sort((a, b) => a.id - b.id)
            .map(toPreference)),

      unreadCount: (accountId, userId) =>
        readStore(store, (state) => ownStored(state, accountId, userId).filter((row) => row.readAt === null).length),

      savePreference: (accountId, userId, name, channels, now) =>
        updateStore(store, (state) => {
          requireMembership(state, accountId, userId, "notification_preferences")
          const existing = state.preferences.find((p) =>
            p.accountId === accountId && p.userId === userId && p.name === name
          )
          const row: PreferenceRow = existing === undefined
            ? { id: state.sequences.preferences, accountId, userId, name, ...channels, createdAt: now, updatedAt: now }
            : { ...existing, ...channels, updatedAt: now }
          const preferences = existing === undefined
            ? [...state.preferences, row]
            : state.preferences.map((p) => p === existing ? row : p)
          const sequences = existing === undefined
            ? { ...state.sequences, preferences: state.sequences.preferences + 1 }
            : state.sequences
          return [toPreference(row), { ...state, preferences, sequences }] as const
        }),

      recipients: (accountId, permission, name) =>
        readStore(store, (state) =>
          [...state.memberships.values()]
            .filter((m) => m.accountId === accountId && m.status === "active")
            .filter((m) =>
              state.teamUsers.some((tu) =>
                tu.accountId === accountId && tu.userId === m.userId &&
                (state.teams.get(tu.teamId)?.permissions.includes(permission) ?? false)
              )
            )
            .sort((a, b) => a.userId - b.userId)
            .flatMap((m) => {
              const user = state.users.get(m.userId)
              if (user === undefined) return []
              const pref = state.preferences.find((p) => p.accountId === accountId && p.userId === m.userId && p.name === name)
              const channels = pref === undefined
                ? { stored: true, popup: true, browser: true, email: true }
                : { stored: pref.stored, popup: pref.popup, browser: pref.browser, email: pref.email }
              return [{ userId: m.userId, email: user.user.email, channels }]
            })),

      lastMailedAbout: (accountId, userId, type, key, value) =>
        readStore(store, (state) => {
          const mailed = state.notifications.filter((n) =>
            n.accountId === accountId && n.userId === userId && n.type === type && n.email != null &&
            (n.data as Readonly<Record<string, unknown>>)[key] === value
          )
          return Option.fromNullishOr(mailed.at(-1)?.createdAt)
        }),
      insert: (n) =>
        Effect.flatMap(updateStore(store, (state) => {
          requireMembership(state, n.accountId, n.userId, "notifications")
          const row: NotificationRow = {
            id: state.sequences.notifications,
            accountId: n.accountId,
            userId: n.userId,
            type: n.type,
            data: n.data,
            readAt: null,
            createdAt: n.now,
            updatedAt: n.now,
            stored: n.channels.stored,
            popup: n.channels.popup,
            browser: n.channels.browser,
            email: n.email,
            emailedAt: null,
            emailAttempts: 0
          }
          return [row.id, {
            ...state,
            notifications: [...state.notifications, row],
            sequences: { ...state.sequences, notifications: row.id + 1 }
          }] as const
        }), (id) =>
          // As the PostgreSQL insert's NOTIFY: told at commit, never on rollback.
          n.channels.popup || n.channels.browser
            ? afterCommit(store, PubSub.publish(store.notices, { accountId: n.accountId, userId: n.userId, id }).pipe(Effect.asVoid))
            : Effect.void),

      findLive: (accountId, userId, id) =>
        readStore(store, (state) =>
          Option.map(
            Option.fromNullishOr(state.notifications.find((row) =>
              row.accountId === accountId && row.userId === userId && row.id === id && isLive(row)
            )),
            toNotification
          )),

      listLiveAfter: (accountId, userId, afterId, limit) =>
        readStore(store, (state) =>
          state.notifications
            .filter((row) =>
              row.accountId === accountId && row.userId === userId && row.id > afterId && isLive(row) &&
              row.readAt === null
            )
            .sort((a, b) => a.id - b.id)
            .slice(-limit)
            .map(toNotification)),

      list: (accountId, userId, page) =>
        readStore(store, (state) => {
          const rows = ownStored(state, accountId, userId).sort((a, b) => b.id - a.id)
          return { items: rows.slice(page.offset, page.offset + page.limit).map(toNotification), total: rows.length }
        }),

      markRead: (accountId, userId, id, now) =>
        updateStore(store, (state) => {
          const row = ownStored(state, accountId, userId).find((r) => r.id === id)
          if (row === undefined) return [Option.none<Notification>(), state] as const
          if (row.readAt !== null) return [Option.some(toNotification(row)), state] as const
          const read: NotificationRow = { ...row, readAt: now, updatedAt: now }
          return [Option.some(toNotification(read)), {
            ...state,
            notifications: state.notifications.map((r) => r === row ? read : r)
          }] as const
        }),

      // Transactions are serialised on the memory store, so claiming needs no row locks.
      claimEmails: (limit, maxAttempts) =>
        readStore(store, (state) =>
          state.notifications
            .filter((r) => r.email != null && r.emailedAt == null && (r.emailAttempts ?? 0) < maxAttempts)
            .slice(0, limit)
            .flatMap((r) => {
              const user = state.users.get(r.userId)
              return user === undefined || !state.memberships.has(membershipKey(r.accountId, r.userId)) ? [] : [{
                accountId: r.accountId,
                notificationId: r.id,
                to: user.user.email,
                subject: r.email!.subject,
                text: r.email!.text
              }]
            })),

      emailSent: (email, now) =>
        updateStore(store, (state) => [undefined, {
          ...state,
          notifications: state.notifications.map((r) =>
            r.accountId === email.accountId && r.id === email.notificationId
              ? { ...r, emailedAt: now, emailAttempts: (r.emailAttempts ?? 0) + 1 }
              : r
          )
        }] as const),

      emailFailed: (email) =>
        updateStore(store, (state) => [undefined, {
          ...state,
          notifications: state.notifications.map((r) =>
            r.accountId === email.accountId && r.id === email.notificationId
              ? { ...r, emailAttempts: (r.emailAttempts ?? 0) + 1 }
              : r
          )
        }] as const)
    })
  })
)
