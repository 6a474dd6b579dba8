/**
 * Messages: what the account sent, as its inbox shows it. A one-time password is never stored:
 * the body holds it as `******`.
 */
import { type DateTime, Schema } from "effect"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { type Broadcast, BroadcastJson, broadcastJson, PLATFORM_TYPE } from "./broadcast.ts"

/** A message the account sent, as stored. */
export interface Message {
  /** The message's id. */
  readonly _id: string
  /** The account that sent it. */
  readonly account_id: number
  /** The provider's message id (channel message id). */
  readonly provider_message_id: string
  /** The contact it went to. */
  readonly contact_id: string
  /** The broadcast it sent. */
  readonly broadcast_id: number
  /** The sending number's id. */
  readonly platform_id: number
  /** The sending number's id at the provider (its phone_id, else its digits). */
  readonly platform_third_party_id: string
  /** The sending number's digits. */
  readonly sender_third_party_id: string
  /** The recipient's digits. */
  readonly receiver_third_party_id: string
  /** The message's status: `sent`. */
  readonly status: "sent"
  /** The body as sent, any code masked. */
  readonly body: string
  /** When it was sent. */
  readonly created_at: DateTime.Utc
  /** When it was last changed. */
  readonly updated_at: DateTime.Utc
}

/** A message as the send endpoints return it, its broadcast embedded. */
export const MessageJson: Schema.Struct<{
  readonly _id: Schema.String
  /** The provider's message id. */
  readonly id: Schema.String
  readonly account_id: Schema.Int
  readonly contact_id: Schema.String
  readonly contact_channel_id: Schema.String
  readonly platform_type: Schema.String
  readonly platform_third_party_id: Schema.String
  readonly sender_third_party_id: Schema.String
  readonly receiver_third_party_id: Schema.String
  readonly status: Schema.String
  readonly broadcast_id: Schema.Int
  readonly body: Schema.String
  readonly attachments: Schema.$Array<Schema.Unknown>
  readonly is_sent_by_the_business: Schema.Boolean
  readonly created_at: Schema.String
  readonly updated_at: Schema.String
  readonly broadcast: typeof BroadcastJson
}> = Schema.Struct({
  _id: Schema.String,
  id: Schema.String,
  account_id: Schema.Int,
  contact_id: Schema.String,
  contact_channel_id: Schema.String,
  platform_type: Schema.String,
  platform_third_party_id: Schema.String,
  sender_third_party_id: Schema.String,
  receiver_third_party_id: Schema.String,
  status: Schema.String,
  broadcast_id: Schema.Int,
  body: Schema.String,
  attachments: Schema.Array(Schema.Unknown),
  is_sent_by_the_business: Schema.Boolean,
  created_at: Schema.String,
  updated_at: Schema.String,
  broadcast: BroadcastJson
}).annotate({ identifier: "Message" })
/** A message in its wire shape (see the `MessageJson` schema). */
export type MessageJson = typeof MessageJson.Type

/** The send response's message, with its broadcast (template and platform) embedded. */
export const messageJson = (m: Message, broadcast: Broadcast): MessageJson => ({
  _id: m._id,
  id: m.provider_message_id,
  account_id: m.account_id,
  contact_id: m.contact_id,
  contact_channel_id: m.contact_id,
  platform_type: PLATFORM_TYPE,
  platform_third_party_id: m.platform_third_party_id,
  sender_third_party_id: m.sender_third_party_id,
  receiver_third_party_id: m.receiver_third_party_id,
  status: m.status,
  broadcast_id: m.broadcast_id,
  body: m.body,
  attachments: [],
  is_sent_by_the_business: true,
  created_at: formatWireTimestamp(m.created_at),
  updated_at: formatWireTimestamp(m.updated_at),
  broadcast: broadcastJson(broadcast)
})
