import { Context, type Effect } from "effect"
import type { NotificationPreference } from "./user.ts"

/** Stored notification preferences and the unread count of a user in an account. */
export class NotificationRepository extends Context.Service<NotificationRepository, {
  readonly listPreferences: (accountId: number, userId: number) => Effect.Effect<ReadonlyArray<NotificationPreference>>
  readonly unreadCount: (accountId: number, userId: number) => Effect.Effect<number>
}>()("@wasl/core/NotificationRepository") {}
