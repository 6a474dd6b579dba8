/**
 * The inbox's shapes. A message is the send answer's without its broadcast (lists show it so);
 * the conversation entry is written out until the OpenAPI document describes
 * `GET /api/conversations`, then it becomes the generated type too.
 */
import type { Schemas } from "../api/client"

export type Attachment = Schemas["Attachment"]

export type Message = Omit<Schemas["SentMessage"], "broadcast">

/** One contact's conversation in the inbox. */
export interface Conversation {
  readonly contact: { readonly _id: string; readonly fullname: string | null; readonly whatsapp_number: string | null }
  readonly last_message: Message
  readonly unread_count: number
  readonly window_expires_at: string | null
}
