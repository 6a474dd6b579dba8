/**
 * A `messages` row as PostgreSQL holds it, and the columns to select it with: shared by every
 * PG adapter that reads messages, so each reads them the same way.
 */
import {
  ATTACHMENT_TYPES,
  type Attachment,
  type Message,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  type MessageError
} from "@wasl/core/Messaging"
import { DateTime, type Effect, type Option, Schema } from "effect"
import { DbInt, DbNullOr, DbTimestamp, decodeFirst, decodeRows } from "../rows.ts"

const AttachmentRow = Schema.Struct({
  type: Schema.Literals(ATTACHMENT_TYPES),
  media_id: Schema.String,
  mime_type: Schema.NullOr(Schema.String),
  sha256: Schema.NullOr(Schema.String),
  filename: Schema.NullOr(Schema.String),
  caption: Schema.NullOr(Schema.String),
  size: Schema.NullOr(Schema.Int),
  state: Schema.Literals(["pending", "stored", "failed"])
})

const MessageErrorRow = Schema.Struct({ code: Schema.Int, title: Schema.String, details: Schema.NullOr(Schema.String) })

/** A `messages` row, decoded to the core's `Message`. */
const MessageRow = Schema.Struct({
  _id: Schema.String,
  account_id: DbInt,
  provider_message_id: Schema.String,
  contact_id: Schema.String,
  contact_channel_id: Schema.String,
  broadcast_id: Schema.NullOr(DbInt),
  platform_id: DbInt,
  platform_third_party_id: Schema.String,
  sender_third_party_id: Schema.String,
  receiver_third_party_id: Schema.String,
  direction: Schema.Literals(["outbound", "inbound"]),
  type: Schema.Literals(MESSAGE_TYPES),
  status: Schema.Literals(MESSAGE_STATUSES),
  body: Schema.String,
  content: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
  context_id: Schema.NullOr(Schema.String),
  attachments: Schema.Array(AttachmentRow),
  error: Schema.NullOr(MessageErrorRow),
  sent_at: DbNullOr(DbTimestamp),
  delivered_at: DbNullOr(DbTimestamp),
  read_at: DbNullOr(DbTimestamp),
  failed_at: DbNullOr(DbTimestamp),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

/** Decodes `messages` rows selected with `MESSAGE_COLUMNS`. */
export const decodeMessages: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Message>> = decodeRows(MessageRow)
/** Decodes the first `messages` row selected with `MESSAGE_COLUMNS`, if any. */
export const decodeMessage: (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<Message>> = decodeFirst(MessageRow)

/** The select list of a `messages` row whose table is aliased `m`, for `MessageRow` (give it to `sql.literal`). */
export const MESSAGE_COLUMNS: string = `
  m.id AS _id, m.account_id, m.provider_message_id, m.contact_id, m.contact_channel_id, m.broadcast_id,
  m.platform_id, m.platform_third_party_id, m.sender_third_party_id, m.receiver_third_party_id, m.direction,
  m.type, m.status, m.body, m.content, m.context_id, m.attachments, m.error, m.sent_at, m.delivered_at,
  m.read_at, m.failed_at, m.created_at, m.updated_at
`

const at = (value: DateTime.Utc | null): Date | null => value === null ? null : DateTime.toDateUtc(value)

/** The JSON parameters of a message's JSON columns. */
export const messageJsonParams = (m: Message): {
  readonly content: string | null
  readonly attachments: string
  readonly error: string | null
} => ({
  content: m.content === null ? null : JSON.stringify(m.content),
  attachments: JSON.stringify(m.attachments satisfies ReadonlyArray<Attachment>),
  error: m.error === null ? null : JSON.stringify(m.error satisfies MessageError)
})

/** A message's timestamps as parameters. */
export const messageTimes = (m: Message): {
  readonly sent_at: Date | null
  readonly delivered_at: Date | null
  readonly read_at: Date | null
  readonly failed_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
} => ({
  sent_at: at(m.sent_at),
  delivered_at: at(m.delivered_at),
  read_at: at(m.read_at),
  failed_at: at(m.failed_at),
  created_at: DateTime.toDateUtc(m.created_at),
  updated_at: DateTime.toDateUtc(m.updated_at)
})
