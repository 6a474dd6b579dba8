/**
 * What a received WhatsApp message holds, in Wasl's terms: its type, its text, what its type
 * carries beyond text, the message it replies or reacts to, and its media.
 *
 * - `text`: the text. Media (`image`, `audio`, `video`, `document`, `sticker`): the caption, and
 *   an attachment (Meta's media id, mime type, sha256, a document's file name, the caption)
 *   whose bytes are fetched afterwards (`pending`, size unknown).
 * - `location`: `{ latitude, longitude, name, address }`; the name (else the address) as text.
 * - `contacts`: `{ contacts: [...] }` as shared; their formatted names as text.
 * - `interactive` (a button or list reply): `{ type, id, title, description }`; the title as text.
 * - `button` (a template's quick reply): `{ payload, text }`; the text as text.
 * - `reaction`: the emoji as text (empty when a reaction was removed), the reacted message as context.
 * - anything else (`unsupported`, Meta's `unknown`, types added later): `unsupported`, with
 *   Meta's error as content when it gave one.
 */
import type { Attachment, AttachmentType, MessageType } from "./message.ts"
import type { MetaMessage } from "./whatsapp-webhook-payload.ts"

/** A received message's content. */
export interface InboundContent {
  /** Its type. */
  readonly type: MessageType
  /** Its text, caption, reply title or emoji. */
  readonly body: string
  /** What its type carries beyond text, else null. */
  readonly content: Readonly<Record<string, unknown>> | null
  /** The provider id of the message it replies or reacts to. */
  readonly context_id: string | null
  /** Its media. */
  readonly attachments: ReadonlyArray<Attachment>
}

type Obj = Readonly<Record<string, unknown>>

const objectOf = (u: unknown): Obj => typeof u === "object" && u !== null && !Array.isArray(u) ? u as Obj : {}
const textOf = (u: unknown): string | null => typeof u === "string" ? u : null
const numberOf = (u: unknown): number | null => typeof u === "number" && Number.isFinite(u) ? u : null

const MEDIA: ReadonlyArray<AttachmentType> = ["image", "audio", "video", "document", "sticker"]

const isMedia = (type: string): type is AttachmentType => (MEDIA as ReadonlyArray<string>).includes(type)

const base = (m: MetaMessage) => ({ context_id: textOf(m.context?.id) ?? null, attachments: [] as ReadonlyArray<Attachment> })

const unsupported = (m: MetaMessage): InboundContent => {
  const error = m.errors?.[0]
  return {
    ...base(m),
    type: "unsupported",
    body: "",
    content: error === undefined
      ? null
      : { error: { code: error.code, title: error.title ?? null, details: error.error_data?.details ?? error.message ?? null } }
  }
}

/** The content of a received message (see the module comment). */
export const inboundContent = (m: MetaMessage): InboundContent => {
  const own = objectOf(m[m.type])
  if (isMedia(m.type)) {
    const mediaId = textOf(own.id)
    if (mediaId === null) return unsupported(m)
    const caption = textOf(own.caption)
    return {
      ...base(m),
      type: m.type,
      body: caption ?? "",
      content: null,
      attachments: [{
        type: m.type,
        media_id: mediaId,
        mime_type: textOf(own.mime_type),
        sha256: textOf(own.sha256),
        filename: textOf(own.filename),
        caption,
        size: null,
        state: "pending"
      }]
    }
  }
  switch (m.type) {
    case "text":
      return { ...base(m), type: "text", body: textOf(own.body) ?? "", content: null }
    case "location": {
      const location = {
        latitude: numberOf(own.latitude),
        longitude: numberOf(own.longitude),
        name: textOf(own.name),
        address: textOf(own.address)
      }
      return { ...base(m), type: "location", body: location.name ?? location.address ?? "", content: location }
    }
    case "contacts": {
      const shared = Array.isArray(m.contacts) ? m.contacts : []
      const names = shared.map((c) => textOf(objectOf(objectOf(c).name).formatted_name)).filter((n) => n !== null)
      return { ...base(m), type: "contacts", body: names.join(", "), content: { contacts: shared } }
    }
    case "interactive": {
      const kind = textOf(own.type)
      const reply = objectOf(kind === null ? undefined : own[kind])
      const title = textOf(reply.title)
      return {
        ...base(m),
        type: "interactive",
        body: title ?? "",
        content: { type: kind, id: textOf(reply.id), title, description: textOf(reply.description) }
      }
    }
    case "button": {
      const text = textOf(own.text)
      return { ...base(m), type: "button", body: text ?? "", content: { payload: textOf(own.payload), text } }
    }
    case "reaction":
      return {
        ...base(m),
        type: "reaction",
        body: textOf(own.emoji) ?? "",
        content: null,
        context_id: textOf(own.message_id) ?? textOf(m.context?.id) ?? null
      }
    default:
      return unsupported(m)
  }
}
