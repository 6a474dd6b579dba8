/**
 * Telling users something happened, each through the channels their preference for that
 * notification enables (all on when never stored): a notification row carrying the stored, popup
 * and browser flags when any is on (the live stream shows popup and browser ones at once), and a
 * queued mail when email is on (sent after commit by the worker's mail loop). A user who silenced
 * every channel gets nothing. Call it inside the transaction of what it tells, so both commit
 * together or not at all.
 */
import { DateTime, Effect, Option } from "effect"
import { NotificationRepository, type NotificationRecipient } from "../account/notification-repository.ts"
import { defaultPreference, type NotificationName } from "../account/user.ts"
import { UserRepository } from "../account/user-repository.ts"

/** What a notification says: the dashboard's data and, for the email channel, the mail. */
export interface NoticeContent {
  /** The notification's data (what the dashboard shows). */
  readonly data: Readonly<Record<string, unknown>>
  /** The mail sent when the email channel is on. */
  readonly mail: { readonly subject: string; readonly text: string }
}

/** Stores the notification `type` for each recipient, through the channels their preference enables. */
export const notifyRecipients = (
  accountId: number,
  type: NotificationName,
  recipients: ReadonlyArray<NotificationRecipient>,
  content: NoticeContent
): Effect.Effect<void, never, NotificationRepository> =>
  Effect.gen(function*() {
    const notifications = yield* NotificationRepository
    const now = yield* DateTime.now
    for (const recipient of recipients) {
      const { stored, popup, browser, email } = recipient.channels
      if (!stored && !popup && !browser && !email) continue
      yield* notifications.insert({
        accountId,
        userId: recipient.userId,
        type,
        data: content.data,
        channels: recipient.channels,
        email: email ? content.mail : null,
        now
      })
    }
  })

/**
 * One user of the account as a recipient of the notification `type`, with the channels their
 * preference enables (all on when never stored); None for a user that no longer exists or is no
 * longer an active member of the account (nobody is told in an account they left).
 */
export const userRecipient = (
  accountId: number,
  userId: number,
  type: NotificationName
): Effect.Effect<Option.Option<NotificationRecipient>, never, NotificationRepository | UserRepository> =>
  Effect.gen(function*() {
    const users = yield* UserRepository
    const user = yield* users.findById(userId)
    const membership = yield* users.findMembership(accountId, userId)
    if (Option.isNone(user) || Option.isNone(membership) || membership.value.status !== "active") return Option.none()
    const preferences = yield* NotificationRepository.use((repo) => repo.listPreferences(accountId, userId))
    const { stored, popup, browser, email } = preferences.find((p) => p.name === type) ?? defaultPreference(type)
    const channels = { stored, popup, browser, email }
    return Option.some({ userId, email: user.value.email, channels })
  })

/** A notification for one user: its name (the preference's name) and what it says. */
export interface Notice extends NoticeContent {
  /** The notification's name. */
  readonly type: NotificationName
}

/**
 * Tells one user of the account (`userRecipient`, then `notifyRecipients`); answers whether they
 * were told at all (false for a user who left the account or silenced every channel).
 */
export const notifyUser = (
  accountId: number,
  userId: number,
  notice: Notice
): Effect.Effect<boolean, never, NotificationRepository | UserRepository> =>
  Effect.gen(function*() {
    const recipient = yield* userRecipient(accountId, userId, notice.type)
    yield* notifyRecipients(accountId, notice.type, Option.toArray(recipient), notice)
    return Option.exists(recipient, ({ channels }) => channels.stored || channels.popup || channels.browser || channels.email)
  })
