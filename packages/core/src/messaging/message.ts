/**
 * Messages (spec §2.7): what the account sent, as its inbox shows it. A one-time password is never
 * stored: the body holds it as `******` (spec §4.2 rule 5).
 */
import { type DateTime, Schema } from "effect"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { type Broadcast, BroadcastJson, broadcastJson, PLATFORM_TYPE } from "./broadcast.ts"

export interface Message {
  readonly _id: string
  readonly account_id: number
  /** The provider's message id (channel message id). */
  readonly provider_message_id: string
  readonly contact_id: string
  readonly broadcast_id: number
  readonly platform_id: number
  readonly platform_third_party_id: string
  readonly sender_third_party_id: string
  readonly receiver_third_party_id: string
  readonly status: "sent"
  /** The body as sent, any code masked. */
  readonly body: string
  readonly created_at: DateTime.Utc
  readonly updated_at: DateTime.Utc
}

export const MessageJson = Schema.Struct({
  _id: Schema.String,
  id: Schema.String,
  account_id: Schema.Number,
  contact_id: Schema.String,
  contact_channel_id: Schema.String,
  platform_type: Schema.String,
  platform_third_party_id: Schema.String,
  sender_third_party_id: Schema.String,
  receiver_third_party_id: Schema.String,
  status: Schema.String,
  broadcast_id: Schema.Number,
  body: Schema.String,
  attachments: Schema.Array(Schema.Unknown),
  is_sent_by_the_business: Schema.Boolean,
  created_at: Schema.String,
  updated_at: Schema.String,
  broadcast: BroadcastJson
}).annotate({ identifier: "Message" })
export type MessageJson = typeof MessageJson.Type

/** The send response's message, with its broadcast (template and platform) embedded (spec §4.1). */
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
