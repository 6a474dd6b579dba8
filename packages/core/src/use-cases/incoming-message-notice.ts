/**
 * The IncomingMessage notification: a contact wrote. Every ACTIVE member of the account whose
 * teams hold `contact-show` is told, through each channel their `IncomingMessage` preference
 * enables (notify.ts): stored, popup and browser at once (the live stream shows them), and mail
 * batched — a member gets at most one IncomingMessage mail per contact per
 * {@link INCOMING_MESSAGE_MAIL_INTERVAL}, so a burst of messages is one mail, not a burst of mails
 * (the later notifications of the burst are stored and live as usual, without mail).
 *
 * Called inside the transaction that stores the message.
 */
import { DateTime, Duration, Effect, Option } from "effect"
import { NotificationRepository } from "../account/notification-repository.ts"
import type { Message } from "../messaging/message.ts"

/** The notification's name. */
export const INCOMING_MESSAGE = "IncomingMessage" as const

/** How long after an IncomingMessage mail about a contact a member gets no other one about it. */
export const INCOMING_MESSAGE_MAIL_INTERVAL: Duration.Duration = Duration.minutes(15)

/** The longest preview of a message's text a notification carries. */
const PREVIEW_MAX = 140

/** What a notification shows of a message: its text, shortened, or its type for media without caption. */
export const messagePreview = (message: Pick<Message, "body" | "type">): string => {
  const text = message.body.replace(/\s+/g, " ").trim()
  if (text === "") return `[${message.type}]`
  const chars = [...text]
  return chars.length <= PREVIEW_MAX ? text : `${chars.slice(0, PREVIEW_MAX - 1).join("")}…`
}

/** Tells the account's members who may see contacts that `message` arrived from the contact `fullname`. */
export const notifyIncomingMessage: (
  message: Message,
  fullname: string | null
) => Effect.Effect<void, never, NotificationRepository> = Effect.fn("notifyIncomingMessage")(
  function*(message: Message, fullname: string | null) {
    const notifications = yield* NotificationRepository
    const recipients = yield* notifications.recipients(message.account_id, "contact-show", INCOMING_MESSAGE)
    const now = yield* DateTime.now
    const preview = messagePreview(message)
    const who = fullname ?? `+${message.sender_third_party_id}`
    const mail = {
      subject: `New message from ${who}`,
      text: [`${who} wrote on WhatsApp:`, "", preview, "", "Later messages from them in the next 15 minutes are not mailed."].join("\n")
    }
    const since = DateTime.subtractDuration(now, INCOMING_MESSAGE_MAIL_INTERVAL)
    for (const recipient of recipients) {
      const { stored, popup, browser } = recipient.channels
      let email = recipient.channels.email
      if (email) {
        const last = yield* notifications.lastMailedAbout(message.account_id, recipient.userId, INCOMING_MESSAGE, "contact_id", message.contact_id)
        email = Option.match(last, { onNone: () => true, onSome: (at) => DateTime.isLessThanOrEqualTo(at, since) })
      }
      if (!stored && !popup && !browser && !email) continue
      yield* notifications.insert({
        accountId: message.account_id,
        userId: recipient.userId,
        type: INCOMING_MESSAGE,
        data: { contact_id: message.contact_id, message_id: message._id, fullname, preview },
        channels: { stored, popup, browser, email },
        email: email ? mail : null,
        now
      })
    }
  }
)
