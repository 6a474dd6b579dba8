/**
 * Telling a member something through the channels they chose for it: a notification row carrying
 * the stored/popup/browser flags when any of those is on (popup and browser reach the live stream
 * once the surrounding transaction commits), and a queued mail when email is on (sent after commit
 * by `sendPendingEmails`). A member who silenced every channel of the notice gets nothing.
 */
import { DateTime, Effect } from "effect"
import type { NotificationChannels, NotificationName } from "../account/user.ts"
import { defaultPreference } from "../account/user.ts"
import { NotificationRepository } from "../account/notification-repository.ts"

/** What to tell: the notification's name, what the dashboard shows, and the mail. */
export interface Notice {
  /** The notification's name (its preference's name). */
  readonly type: NotificationName
  /** The notification's details, as the notifications list shows them. */
  readonly data: Readonly<Record<string, unknown>>
  /** The mail sent when the email channel is on. */
  readonly mail: { readonly subject: string; readonly text: string }
}

/** Tells the member through `channels`; false (and nothing stored) when every channel is off. */
export const deliverNotice: (
  accountId: number,
  userId: number,
  channels: NotificationChannels,
  notice: Notice
) => Effect.Effect<boolean, never, NotificationRepository> = Effect.fn("deliverNotice")(function*(
  accountId: number,
  userId: number,
  channels: NotificationChannels,
  notice: Notice
) {
  const { stored, popup, browser, email } = channels
  if (!stored && !popup && !browser && !email) return false
  const notifications = yield* NotificationRepository
  yield* notifications.insert({
    accountId,
    userId,
    type: notice.type,
    data: notice.data,
    channels,
    email: email ? notice.mail : null,
    now: yield* DateTime.now
  })
  return true
})

/**
 * Tells one member of the account, through the channels of their preference for the notice's
 * name (every channel on when they never chose). Call it inside the transaction of what it tells,
 * so both commit together or not at all. Answers whether anything was stored.
 */
export const notifyUser: (
  accountId: number,
  userId: number,
  notice: Notice
) => Effect.Effect<boolean, never, NotificationRepository> = Effect.fn("notifyUser")(function*(
  accountId: number,
  userId: number,
  notice: Notice
) {
  const preferences = yield* NotificationRepository.use((repo) => repo.listPreferences(accountId, userId))
  const chosen = preferences.find((p) => p.name === notice.type) ?? defaultPreference(notice.type)
  const { stored, popup, browser, email } = chosen
  return yield* deliverNotice(accountId, userId, { stored, popup, browser, email }, notice)
})
