/**
 * Messages: what the account and its contacts said to each other over WhatsApp, in both
 * directions, as the inbox shows them. A one-time password is never stored: the body holds it as
 * `******`.
 *
 * An outbound message's status only moves forward (`sent` → `delivered` → `read`, or `failed`);
 * an inbound one is `received` until the team reads it (`read`). Media arrives as a reference to
 * the provider's copy (`media_id`) and is fetched into Wasl's own store afterwards (`state`).
 */
import { type DateTime, Schema } from "effect"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { type Broadcast, BroadcastJson, broadcastJson, PLATFORM_TYPE } from "./broadcast.ts"

/** Who sent it: the business (`outbound`) or the contact (`inbound`). */
export type MessageDirection = "outbound" | "inbound"

/** What a message holds, as WhatsApp names its message types (`template` for a broadcast's send). */
export const MESSAGE_TYPES = [
  "template",
  "text",
  "image",
  "audio",
  "video",
  "document",
  "sticker",
  "location",
  "contacts",
  "interactive",
  "button",
  "reaction",
  "unsupported"
] as const
/** One of `MESSAGE_TYPES`. */
export type MessageType = typeof MESSAGE_TYPES[number]

/** Where a message is: outbound `sent`, `delivered`, `read` or `failed`; inbound `received`, then `read`. */
export const MESSAGE_STATUSES = ["sent", "delivered", "read", "failed", "received"] as const
/** One of `MESSAGE_STATUSES`. */
export type MessageStatus = typeof MESSAGE_STATUSES[number]

/** The media types a message may carry. */
export const ATTACHMENT_TYPES = ["image", "audio", "video", "document", "sticker"] as const
/** One of `ATTACHMENT_TYPES`. */
export type AttachmentType = typeof ATTACHMENT_TYPES[number]

/** Whether an attachment's bytes are in Wasl's media store yet. */
export type AttachmentState = "pending" | "stored" | "failed"

/** A media file of a message. */
export interface Attachment {
  /** Its kind of media. */
  readonly type: AttachmentType
  /** The provider's id of the media (Meta's media id), to fetch it with. */
  readonly media_id: string
  /** Its media type (`image/jpeg`, ...), as the provider gave it. */
  readonly mime_type: string | null
  /** Its SHA-256, as the provider gave it. */
  readonly sha256: string | null
  /** Its file name (documents). */
  readonly filename: string | null
  /** Its caption. */
  readonly caption: string | null
  /** Its size in bytes, once stored. */
  readonly size: number | null
  /** Whether its bytes are in the media store. */
  readonly state: AttachmentState
}

/** Why the provider could not deliver a message, as it said. */
export interface MessageError {
  /** The provider's error code. */
  readonly code: number
  /** Its title. */
  readonly title: string
  /** Its details, when given. */
  readonly details: string | null
}

/** A message, as stored. */
export interface Message {
  /** The message's id. */
  readonly _id: string
  /** The account it belongs to. */
  readonly account_id: number
  /** The provider's message id (`wamid...`). */
  readonly provider_message_id: string
  /** The contact it went to or came from. */
  readonly contact_id: string
  /** The contact's channel entry it travelled on (the sending number and the contact's WhatsApp id). */
  readonly contact_channel_id: string
  /** The broadcast it sent; null for inbound messages and free-form replies. */
  readonly broadcast_id: number | null
  /** The sending number's id. */
  readonly platform_id: number
  /** The sending number's id at the provider (its phone_id, else its digits). */
  readonly platform_third_party_id: string
  /** The sender's digits. */
  readonly sender_third_party_id: string
  /** The recipient's digits. */
  readonly receiver_third_party_id: string
  /** Who sent it. */
  readonly direction: MessageDirection
  /** What it holds. */
  readonly type: MessageType
  /** Where it is. */
  readonly status: MessageStatus
  /** Its text or caption (a reaction's emoji), any code masked. */
  readonly body: string
  /** What its type carries beyond text (a location, shared contacts, a button's reply), else null. */
  readonly content: Readonly<Record<string, unknown>> | null
  /** The provider's id of the message it replies or reacts to. */
  readonly context_id: string | null
  /** Its media. */
  readonly attachments: ReadonlyArray<Attachment>
  /** Why it failed, when it did. */
  readonly error: MessageError | null
  /** When the provider sent it. */
  readonly sent_at: DateTime.Utc | null
  /** When it reached the phone. */
  readonly delivered_at: DateTime.Utc | null
  /** When it was read (outbound: by the contact; inbound: by the team). */
  readonly read_at: DateTime.Utc | null
  /** When it failed. */
  readonly failed_at: DateTime.Utc | null
  /** When it was sent or, inbound, when the contact sent it. */
  readonly created_at: DateTime.Utc
  /** When it was last changed. */
  readonly updated_at: DateTime.Utc
}

const NullableTimestamp = Schema.NullOr(Schema.String)

/** An attachment as shown: its download `url` is Wasl's own. */
export const AttachmentJson: Schema.Struct<{
  readonly type: Schema.String
  readonly mime_type: Schema.NullOr<Schema.String>
  readonly sha256: Schema.NullOr<Schema.String>
  readonly filename: Schema.NullOr<Schema.String>
  readonly caption: Schema.NullOr<Schema.String>
  readonly size: Schema.NullOr<Schema.Int>
  readonly url: Schema.String
}> = Schema.Struct({
  type: Schema.String,
  mime_type: Schema.NullOr(Schema.String),
  sha256: Schema.NullOr(Schema.String),
  filename: Schema.NullOr(Schema.String),
  caption: Schema.NullOr(Schema.String),
  size: Schema.NullOr(Schema.Int),
  url: Schema.String
}).annotate({ identifier: "Attachment" })

/** A provider's error as shown. */
export const MessageErrorJson: Schema.Struct<{
  readonly code: Schema.Int
  readonly title: Schema.String
  readonly details: Schema.NullOr<Schema.String>
}> = Schema.Struct({
  code: Schema.Int,
  title: Schema.String,
  details: Schema.NullOr(Schema.String)
}).annotate({ identifier: "MessageError" })

/** The fields of a message as shown. */
export type MessageJsonFields = {
  readonly _id: Schema.String
  /** The provider's message id. */
  readonly id: Schema.String
  readonly account_id: Schema.Int
  readonly contact_id: Schema.String
  readonly contact_channel_id: Schema.String
  readonly platform_type: Schema.String
  readonly platform_id: Schema.Int
  readonly platform_third_party_id: Schema.String
  readonly sender_third_party_id: Schema.String
  readonly receiver_third_party_id: Schema.String
  readonly type: Schema.String
  readonly status: Schema.String
  readonly broadcast_id: Schema.NullOr<Schema.Int>
  readonly body: Schema.String
  readonly content: Schema.NullOr<Schema.$Record<Schema.String, Schema.Unknown>>
  readonly context_id: Schema.NullOr<Schema.String>
  readonly attachments: Schema.$Array<typeof AttachmentJson>
  readonly error: Schema.NullOr<typeof MessageErrorJson>
  readonly is_sent_by_the_business: Schema.Boolean
  readonly sent_at: Schema.NullOr<Schema.String>
  readonly delivered_at: Schema.NullOr<Schema.String>
  readonly read_at: Schema.NullOr<Schema.String>
  readonly failed_at: Schema.NullOr<Schema.String>
  readonly created_at: Schema.String
  readonly updated_at: Schema.String
}

const messageFields: MessageJsonFields = {
  _id: Schema.String,
  /** The provider's message id. */
  id: Schema.String,
  account_id: Schema.Int,
  contact_id: Schema.String,
  contact_channel_id: Schema.String,
  platform_type: Schema.String,
  platform_id: Schema.Int,
  platform_third_party_id: Schema.String,
  sender_third_party_id: Schema.String,
  receiver_third_party_id: Schema.String,
  type: Schema.String,
  status: Schema.String,
  broadcast_id: Schema.NullOr(Schema.Int),
  body: Schema.String,
  content: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
  context_id: Schema.NullOr(Schema.String),
  attachments: Schema.Array(AttachmentJson),
  error: Schema.NullOr(MessageErrorJson),
  is_sent_by_the_business: Schema.Boolean,
  sent_at: NullableTimestamp,
  delivered_at: NullableTimestamp,
  read_at: NullableTimestamp,
  failed_at: NullableTimestamp,
  created_at: Schema.String,
  updated_at: Schema.String
}


/** A message as lists and reads show it. */
export const MessageJson: Schema.Struct<MessageJsonFields> = Schema.Struct(messageFields).annotate({ identifier: "Message" })
/** A message in its wire shape (see the `MessageJson` schema). */
export type MessageJson = typeof MessageJson.Type

/** A message as the send endpoints answer it: its broadcast (template and number) embedded. */
export const SentMessageJson: Schema.Struct<MessageJsonFields & { readonly broadcast: typeof BroadcastJson }> = Schema
  .Struct({ ...messageFields, broadcast: BroadcastJson }).annotate({ identifier: "SentMessage" })
/** A sent message in its wire shape (see the `SentMessageJson` schema). */
export type SentMessageJson = typeof SentMessageJson.Type

/** Where an attachment of a message is downloaded from (relative to the API's base URL). */
export const attachmentPath = (messageId: string, index: number): string => `/api/messages/${messageId}/attachments/${index}`

const timestampOrNull = (at: DateTime.Utc | null): string | null => at === null ? null : formatWireTimestamp(at)

/** A message in its REST shape. */
export const messageJson = (m: Message): MessageJson => ({
  _id: m._id,
  id: m.provider_message_id,
  account_id: m.account_id,
  contact_id: m.contact_id,
  contact_channel_id: m.contact_channel_id,
  platform_type: PLATFORM_TYPE,
  platform_id: m.platform_id,
  platform_third_party_id: m.platform_third_party_id,
  sender_third_party_id: m.sender_third_party_id,
  receiver_third_party_id: m.receiver_third_party_id,
  type: m.type,
  status: m.status,
  broadcast_id: m.broadcast_id,
  body: m.body,
  content: m.content,
  context_id: m.context_id,
  attachments: m.attachments.map((a, index) => ({
    type: a.type,
    mime_type: a.mime_type,
    sha256: a.sha256,
    filename: a.filename,
    caption: a.caption,
    size: a.size,
    url: attachmentPath(m._id, index)
  })),
  error: m.error,
  is_sent_by_the_business: m.direction === "outbound",
  sent_at: timestampOrNull(m.sent_at),
  delivered_at: timestampOrNull(m.delivered_at),
  read_at: timestampOrNull(m.read_at),
  failed_at: timestampOrNull(m.failed_at),
  created_at: formatWireTimestamp(m.created_at),
  updated_at: formatWireTimestamp(m.updated_at)
})

/** The send response's message, with its broadcast (template and platform) embedded. */
export const sentMessageJson = (m: Message, broadcast: Broadcast): SentMessageJson => ({
  ...messageJson(m),
  broadcast: broadcastJson(broadcast)
})
