/**
 * The conversation endpoints' shapes, as agreed with the server side until the OpenAPI document
 * (and so `Schemas`) describes them; then these become aliases of the generated types.
 */

/** A stored media file of a message; `url` downloads it (members of the account only). */
export interface Attachment {
  readonly type: string
  readonly mime_type: string | null
  readonly sha256?: string | null
  readonly filename: string | null
  readonly caption: string | null
  readonly size: number | null
  readonly url: string
}

/** Meta's reason for a failed send. */
export interface SendError {
  readonly code: number
  readonly title: string
  readonly details?: string | null
}

/** One message of a conversation, either direction. */
export interface Message {
  readonly _id: string
  readonly id: string
  readonly contact_id: string
  readonly type: string
  readonly status: string
  readonly body: string
  readonly content?: unknown
  readonly attachments: ReadonlyArray<Attachment>
  readonly error?: SendError | null
  readonly is_sent_by_the_business: boolean
  readonly sent_at?: string | null
  readonly delivered_at?: string | null
  readonly read_at?: string | null
  readonly failed_at?: string | null
  readonly created_at: string
}

/** One contact's conversation in the inbox. */
export interface Conversation {
  readonly contact: { readonly _id: string; readonly fullname: string | null; readonly whatsapp_number: string | null }
  readonly last_message: Message
  readonly unread_count: number
  readonly window_expires_at: string | null
}
