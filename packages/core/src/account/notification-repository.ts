import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Permission } from "../auth/permission.ts"
import type { Notification, PendingEmail } from "./notification.ts"
import type { NotificationChannels, NotificationName, NotificationPreference } from "./user.ts"

/** A member to notify, with the channels their preference for the notification enables. */
export interface NotificationRecipient {
  /** The member's user id. */
  readonly userId: number
  /** Where a mail goes. */
  readonly email: string
  /** The channels the member's preference for the notification enables. */
  readonly channels: NotificationChannels
}

/** A notification to store for one user (and, when `email` is set, the mail to queue). */
export interface NewNotification {
  /** The account it happened in. */
  readonly accountId: number
  /** The user told. */
  readonly userId: number
  /** The notification's name. */
  readonly type: NotificationName
  /** What the dashboard shows: the notification's details. */
  readonly data: Readonly<Record<string, unknown>>
  /** The channels to use: `stored`, `popup`, `browser` are flags of the row; `email` queues a mail. */
  readonly channels: NotificationChannels
  /** Rendered when queued, so the mail says what was true at that moment. */
  readonly email: { readonly subject: string; readonly text: string } | null
  /** When it happened. */
  readonly now: DateTime.Utc
}

/** What the {@link NotificationRepository} port offers (implement this to write an adapter). */
export interface NotificationRepositoryShape {
  /** The user's stored preferences in the account (names never stored are left out). */
  readonly listPreferences: (accountId: number, userId: number) => Effect.Effect<ReadonlyArray<NotificationPreference>>
  /** Unread notifications the user can see (`stored` ones). */
  readonly unreadCount: (accountId: number, userId: number) => Effect.Effect<number>
  /** Creates or replaces the user's preference for `name`. */
  readonly savePreference: (
    accountId: number,
    userId: number,
    name: NotificationName,
    channels: NotificationChannels,
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
  /**
   * Stores the notification and, when it has one, queues its mail. When its `popup` or `browser`
   * channel is on, the `NotificationFeed` of every process tells the user once the surrounding
   * transaction commits.
   */
  readonly insert: (notification: NewNotification) => Effect.Effect<void>
  /**
   * When the user's latest notification `type` whose data has `key` = `value` (a string) was
   * made with a mail queued, or none: what keeps a burst of notifications about one subject from
   * becoming a burst of mails.
   */
  readonly lastMailedAbout: (
    accountId: number,
    userId: number,
    type: NotificationName,
    key: string,
    value: string
  ) => Effect.Effect<Option.Option<DateTime.Utc>>
  /** The user's stored notifications, newest first, one page. */
  readonly list: (
    accountId: number,
    userId: number,
    page: { readonly offset: number; readonly limit: number }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<Notification>; readonly total: number }>
  /** The user's notification `id` when its `popup` or `browser` channel is on; None otherwise. */
  readonly findLive: (accountId: number, userId: number, id: number) => Effect.Effect<Option.Option<Notification>>
  /**
   * The user's unread notifications after `afterId` whose `popup` or `browser` channel is on: the
   * newest `limit` of them, oldest first (what a live stream missed while it was away).
   */
  readonly listLiveAfter: (
    accountId: number,
    userId: number,
    afterId: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<Notification>>
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
  /** Marks the mail sent: it leaves the queue. */
  readonly emailSent: (email: PendingEmail, now: DateTime.Utc) => Effect.Effect<void>
  /** Counts a failed attempt at the mail; it stays queued until `maxAttempts` is reached. */
  readonly emailFailed: (email: PendingEmail) => Effect.Effect<void>
}

const NotificationRepositoryBase: Context.ServiceClass<
  NotificationRepository,
  "@wasl/core/NotificationRepository",
  NotificationRepositoryShape
> = Context.Service<NotificationRepository, NotificationRepositoryShape>()("@wasl/core/NotificationRepository")

/**
 * Notification preferences, notifications and their mail queue, per user in an account. Every
 * method takes the account: one account never sees another's rows.
 * Its operations: {@link NotificationRepositoryShape}.
 */
export class NotificationRepository extends NotificationRepositoryBase {}
