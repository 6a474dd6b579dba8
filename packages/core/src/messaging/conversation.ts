/**
 * A conversation as the inbox shows it, and WhatsApp's customer-service window: a business may
 * answer a contact with free-form messages for 24 hours after the contact's last message; outside
 * it, only a template may open the conversation again.
 */
import { DateTime, Duration, Schema } from "effect"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import type { InboxEntry } from "./conversations.ts"
import { MessageJson, messageJson } from "./message.ts"

/** How long the customer-service window stays open after the contact's last message. */
export const SERVICE_WINDOW: Duration.Duration = Duration.hours(24)

/** The 422 message of a free-form reply outside the window. */
export const WINDOW_CLOSED = "A template message is needed outside the 24-hour customer-service window."

/** When the window opened by `lastInboundAt` closes, or null when it is closed (or never opened) at `now`. */
export const windowExpiresAt = (lastInboundAt: DateTime.Utc | null, now: DateTime.Utc): DateTime.Utc | null => {
  if (lastInboundAt === null) return null
  const expires = DateTime.addDuration(lastInboundAt, SERVICE_WINDOW)
  return DateTime.isGreaterThan(expires, now) ? expires : null
}

/** One entry of `GET /api/conversations`. */
export const ConversationJson: Schema.Struct<{
  readonly contact: Schema.Struct<{
    readonly _id: Schema.String
    readonly fullname: Schema.NullOr<Schema.String>
    readonly whatsapp_number: Schema.NullOr<Schema.String>
  }>
  readonly last_message: typeof MessageJson
  readonly unread_count: Schema.Int
  readonly window_expires_at: Schema.NullOr<Schema.String>
}> = Schema.Struct({
  contact: Schema.Struct({
    _id: Schema.String,
    fullname: Schema.NullOr(Schema.String),
    whatsapp_number: Schema.NullOr(Schema.String)
  }),
  last_message: MessageJson,
  unread_count: Schema.Int,
  window_expires_at: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Conversation" })
/** A conversation in its wire shape (see the `ConversationJson` schema). */
export type ConversationJson = typeof ConversationJson.Type

/** An inbox entry in its REST shape, its window judged at `now`. */
export const conversationJson = (entry: InboxEntry, now: DateTime.Utc): ConversationJson => {
  const expires = windowExpiresAt(entry.lastInboundAt, now)
  return {
    contact: { _id: entry.contactId, fullname: entry.fullname, whatsapp_number: entry.whatsappNumber },
    last_message: messageJson(entry.lastMessage),
    unread_count: entry.unreadCount,
    window_expires_at: expires === null ? null : formatWireTimestamp(expires)
  }
}
