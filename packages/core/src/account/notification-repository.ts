import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Permission } from "../auth/permission.ts"
import type { Notification, PendingEmail } from "./notification.ts"
import type { NotificationChannels, NotificationName, NotificationPreference } from "./user.ts"

/** A member to notify, with the channels their preference for the notification enables. */
export interface NotificationRecipient {
  readonly userId: number
  readonly email: string
  readonly channels: typeof NotificationChannels.Type
}

export interface NewNotification {
  readonly accountId: number
  readonly userId: number
  readonly type: NotificationName
  readonly data: Readonly<Record<string, unknown>>
  readonly channels: typeof NotificationChannels.Type
  /** Rendered when queued, so the mail says what was true at that moment. */
  readonly email: { readonly subject: string; readonly text: string } | null
  readonly now: DateTime.Utc
}

/**
 * Notification preferences, notifications and their mail queue, per user in an account. Every
 * method takes the account (ARCHITECTURE rule 8).
 */
export class NotificationRepository extends Context.Service<NotificationRepository, {
  readonly listPreferences: (accountId: number, userId: number) => Effect.Effect<ReadonlyArray<NotificationPreference>>
  /** Unread notifications the user can see (`stored` ones). */
  readonly unreadCount: (accountId: number, userId: number) => Effect.Effect<number>
  /** Creates or replaces the user's preference for `name`. */
  readonly savePreference: (
    accountId: number,
    userId: number,
    name: NotificationName,
    channels: typeof NotificationChannels.Type,
    now: DateTime.Utc
  ) => Effect.Effect<NotificationPreference>
  /**
   * The ACTIVE members of the account whose teams hold `permission`, each with their preference
   * for `name` (all channels on when never stored), by user id.
   */
  readonly recipients: (
    accountId: number,
    permission: Permission,
    name: NotificationName
  ) => Effect.Effect<ReadonlyArray<NotificationRecipient>>
  readonly insert: (notification: NewNotification) => Effect.Effect<void>
  /** The user's stored notifications, newest first, one page. */
  readonly list: (
    accountId: number,
    userId: number,
    page: { readonly offset: number; readonly limit: number }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<Notification>; readonly total: number }>
  /** Marks the user's stored notification read (the first read time is kept); None if there is none. */
  readonly markRead: (
    accountId: number,
    userId: number,
    id: number,
    now: DateTime.Utc
  ) => Effect.Effect<Option.Option<Notification>>
  /**
   * Up to `limit` queued mails, oldest first, each held against other workers until the
   * surrounding transaction ends (FOR UPDATE SKIP LOCKED); mails that failed `maxAttempts` times
   * are left alone.
   */
  readonly claimEmails: (limit: number, maxAttempts: number) => Effect.Effect<ReadonlyArray<PendingEmail>>
  readonly emailSent: (email: PendingEmail, now: DateTime.Utc) => Effect.Effect<void>
  readonly emailFailed: (email: PendingEmail) => Effect.Effect<void>
}>()("@wasl/core/NotificationRepository") {}
