import { type NotificationPreference, NotificationRepository } from "@wasl/core"
import { Effect, Layer } from "effect"
import { MemoryStore, type PreferenceRow, readStore } from "./store.ts"

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
        readStore(store, (state) =>
          state.notifications.filter((row) =>
            row.accountId === accountId && row.userId === userId && row.readAt === null
          ).length)
    })
  })
)
