/**
 * A fake Meta for tests: the callbacks of the WhatsApp Cloud API's `messages` webhook, built as
 * the examples of Meta's webhook reference show them (an inbound message of every type, and the
 * statuses of sent messages with their errors), and its `phone_number_quality_update` callback,
 * signed as Meta signs them
 * (`X-Hub-Signature-256: sha256=<lowercase hex HMAC-SHA256 of the body, keyed with the app secret>`).
 *
 * @example
 * ```ts
 * const payload = metaWebhook.textMessage({ phoneNumberId: "106540352242922", from: "16505551234", id: "wamid.1", text: "Hi" })
 * const body = metaJson(payload)
 * await fetch(`${url}/api/whatsapp/webhook`, {
 *   method: "POST",
 *   headers: { "content-type": "application/json", "x-hub-signature-256": signMeta(appSecret, body) },
 *   body
 * })
 * ```
 */
import { createHmac } from "node:crypto"

/**
 * A payload as Meta writes it: JSON with every character beyond ASCII escaped (`\u00e9`, a
 * surrogate pair for an emoji), so the bytes signed are ASCII. Meta signs that text; a receiver
 * that decodes the body and encodes it again would sign something else.
 */
export const metaJson = (payload: unknown): string =>
  JSON.stringify(payload).replace(/[^\0-~]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** `sha256=` and the lowercase hex HMAC-SHA256 of the body (its UTF-8 bytes), keyed with the app secret: Meta's signature. */
export const signMeta = (appSecret: string, body: string | Uint8Array): string =>
  `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`

/** The WhatsApp Business Account id the fake callbacks name (any will do: the phone number id routes). */
export const FAKE_WABA_ID = "102290129340398"

/** Seconds since the epoch as Meta writes them: a string. */
const seconds = (timestamp: number | string | undefined): string =>
  timestamp === undefined ? String(Math.floor(Date.now() / 1000)) : String(timestamp)

/** What every inbound message has: who sent it, its wamid and when. */
export interface MetaMessageBase {
  /** The sender's WhatsApp id (digits). */
  readonly from: string
  /** The message's wamid. */
  readonly id: string
  /** Unix seconds; now when absent. */
  readonly timestamp?: number | string
  /** The message it answers (quoted, or the one whose button was pressed). */
  readonly context?: { readonly from: string; readonly id: string }
}

/** A media object of an inbound message: its Graph API media id, type and hash. */
export interface MetaMedia {
  /** The media id to fetch it with from the Graph API. */
  readonly mediaId: string
  /** Its MIME type. */
  readonly mimeType?: string
  /** Its SHA-256 (base64, as Meta writes it). */
  readonly sha256?: string
  /** Its caption (images, videos, documents). */
  readonly caption?: string
}

/** An inbound message object, as in `value.messages[]`. */
export type MetaMessage = Record<string, unknown> & { readonly id: string; readonly type: string; readonly from: string }

const base = (input: MetaMessageBase, type: string): MetaMessage => ({
  ...(input.context === undefined ? {} : { context: input.context }),
  from: input.from,
  id: input.id,
  timestamp: seconds(input.timestamp),
  type
})

const SHA256 = "tU0k0sbSFGI6rOTmBCcnPs+3SbkQEZ3PfJR5xwcKQ4Q="

const media = (input: MetaMedia, mimeType: string, extra: Record<string, unknown> = {}) => ({
  ...(input.caption === undefined ? {} : { caption: input.caption }),
  mime_type: input.mimeType ?? mimeType,
  sha256: input.sha256 ?? SHA256,
  id: input.mediaId,
  ...extra
})

/** The inbound message objects of every type of Meta's reference. */
export const metaMessage = {
  /** A text message. */
  text: (input: MetaMessageBase & { readonly text: string }): MetaMessage => ({ ...base(input, "text"), text: { body: input.text } }),
  /** An image, with an optional caption. */
  image: (input: MetaMessageBase & MetaMedia): MetaMessage => ({ ...base(input, "image"), image: media(input, "image/jpeg") }),
  /** An audio message (`voice`: recorded in WhatsApp). */
  audio: (input: MetaMessageBase & MetaMedia & { readonly voice?: boolean }): MetaMessage => ({
    ...base(input, "audio"),
    audio: media(input, "audio/ogg; codecs=opus", { voice: input.voice ?? true })
  }),
  /** A video, with an optional caption. */
  video: (input: MetaMessageBase & MetaMedia): MetaMessage => ({ ...base(input, "video"), video: media(input, "video/mp4") }),
  /** A document with its file name. */
  document: (input: MetaMessageBase & MetaMedia & { readonly filename: string }): MetaMessage => ({
    ...base(input, "document"),
    document: { ...media(input, "application/pdf"), filename: input.filename }
  }),
  /** A sticker. */
  sticker: (input: MetaMessageBase & MetaMedia & { readonly animated?: boolean }): MetaMessage => ({
    ...base(input, "sticker"),
    sticker: media(input, "image/webp", { animated: input.animated ?? false })
  }),
  /** A location pin, with its name and address when it is a place. */
  location: (input: MetaMessageBase & {
    readonly latitude: number
    readonly longitude: number
    readonly name?: string
    readonly address?: string
  }): MetaMessage => ({
    ...base(input, "location"),
    location: {
      ...(input.address === undefined ? {} : { address: input.address }),
      latitude: input.latitude,
      longitude: input.longitude,
      ...(input.name === undefined ? {} : { name: input.name })
    }
  }),
  /** One or more shared contact cards. */
  contacts: (input: MetaMessageBase & {
    readonly contacts: ReadonlyArray<{ readonly formattedName: string; readonly firstName?: string; readonly phone: string; readonly waId?: string }>
  }): MetaMessage => ({
    ...base(input, "contacts"),
    contacts: input.contacts.map((card) => ({
      name: { formatted_name: card.formattedName, ...(card.firstName === undefined ? {} : { first_name: card.firstName }) },
      phones: [{ phone: card.phone, ...(card.waId === undefined ? {} : { wa_id: card.waId }), type: "MOBILE" }]
    }))
  }),
  /** The reply button of an interactive message, pressed (`context` names that message). */
  buttonReply: (input: MetaMessageBase & { readonly replyId: string; readonly title: string }): MetaMessage => ({
    ...base(input, "interactive"),
    interactive: { type: "button_reply", button_reply: { id: input.replyId, title: input.title } }
  }),
  /** A row of an interactive list, chosen. */
  listReply: (input: MetaMessageBase & { readonly replyId: string; readonly title: string; readonly description?: string }): MetaMessage => ({
    ...base(input, "interactive"),
    interactive: {
      type: "list_reply",
      list_reply: { id: input.replyId, title: input.title, ...(input.description === undefined ? {} : { description: input.description }) }
    }
  }),
  /** The quick-reply button of a template, pressed. */
  button: (input: MetaMessageBase & { readonly payload: string; readonly text: string }): MetaMessage => ({
    ...base(input, "button"),
    button: { payload: input.payload, text: input.text }
  }),
  /** A reaction to a message (`emoji` empty: the reaction was removed). */
  reaction: (input: MetaMessageBase & { readonly messageId: string; readonly emoji: string }): MetaMessage => ({
    ...base(input, "reaction"),
    reaction: { message_id: input.messageId, emoji: input.emoji }
  }),
  /** A message of a type the Cloud API does not support, with Meta's error. */
  unsupported: (input: MetaMessageBase): MetaMessage => ({
    ...base(input, "unsupported"),
    errors: [{
      code: 131051,
      title: "Message type unknown",
      message: "Message type unknown",
      error_data: { details: "Message type is currently not supported." }
    }]
  })
} as const

/** An error of a failed status, as Meta gives it. */
export interface MetaError {
  /** Meta's error code (131026: undeliverable, 131047: the 24-hour window is closed, ...). */
  readonly code: number
  /** Its title. */
  readonly title: string
  /** Its message; the title when absent. */
  readonly message?: string
  /** Its details. */
  readonly details: string
}

/** The status of a message the business sent, as in `value.statuses[]`. */
export interface MetaStatusInput {
  /** The sent message's wamid. */
  readonly id: string
  /** `sent`, `delivered`, `read` or `failed`. */
  readonly status: "sent" | "delivered" | "read" | "failed"
  /** The recipient's WhatsApp id. */
  readonly recipientId: string
  /** Unix seconds; now when absent. */
  readonly timestamp?: number | string
  /** The errors of a failed status; Meta's "Message undeliverable" when absent. */
  readonly errors?: ReadonlyArray<MetaError>
  /** The `biz_opaque_callback_data` the message was sent with, if any. */
  readonly tracking?: string
}

const UNDELIVERABLE: MetaError = { code: 131026, title: "Message undeliverable", details: "Message Undeliverable." }

/** A status object as Meta writes it: the conversation and pricing for sent ones, the errors for failed ones. */
export const metaStatus = (input: MetaStatusInput): Record<string, unknown> => ({
  id: input.id,
  status: input.status,
  timestamp: seconds(input.timestamp),
  recipient_id: input.recipientId,
  ...(input.tracking === undefined ? {} : { biz_opaque_callback_data: input.tracking }),
  ...(input.status === "failed"
    ? {
      errors: (input.errors ?? [UNDELIVERABLE]).map((error) => ({
        code: error.code,
        title: error.title,
        message: error.message ?? error.title,
        error_data: { details: error.details },
        href: "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/"
      }))
    }
    : {
      conversation: {
        id: "CONVERSATION_ID",
        ...(input.status === "sent" ? { expiration_timestamp: seconds(Number(seconds(input.timestamp)) + 86400) } : {}),
        origin: { type: "utility" }
      },
      pricing: { billable: true, pricing_model: "CBP", category: "utility" }
    })
})

/** The sending number a callback is for. */
export interface MetaNumber {
  /** The phone number id (the platform's `phone_id` in Wasl). */
  readonly phoneNumberId: string
  /** Its display number; a made-up one when absent. */
  readonly displayPhoneNumber?: string
}

/** A callback's payload (encode it with `metaJson`, then sign the text with `signMeta`). */
export interface MetaWebhookPayload {
  /** Always `whatsapp_business_account`. */
  readonly object: "whatsapp_business_account"
  /** The WhatsApp Business Accounts' changes: here one, of the `messages` field. */
  readonly entry: ReadonlyArray<{
    readonly id: string
    readonly changes: ReadonlyArray<{ readonly value: Record<string, unknown>; readonly field: string }>
  }>
}

/** A callback of the `messages` field: one entry, one change, with `value` for the number. */
const callback = (number: MetaNumber, value: Record<string, unknown>): MetaWebhookPayload => ({
  object: "whatsapp_business_account",
  entry: [{
    id: FAKE_WABA_ID,
    changes: [{
      value: {
        messaging_product: "whatsapp",
        metadata: { display_phone_number: number.displayPhoneNumber ?? "15550783881", phone_number_id: number.phoneNumberId },
        ...value
      },
      field: "messages"
    }]
  }]
})

/** Whole callbacks, as Meta posts them. */
export const metaWebhook = {
  /** Inbound messages from one sender (with its profile name) to one number. */
  messages: (input: MetaNumber & { readonly profileName?: string; readonly messages: ReadonlyArray<MetaMessage> }): MetaWebhookPayload => {
    const from = input.messages[0]?.from ?? ""
    return callback(input, {
      contacts: [{ profile: { name: input.profileName ?? "Sheena Nelson" }, wa_id: from }],
      messages: input.messages
    })
  },
  /** One text message. */
  textMessage: (input: MetaNumber & MetaMessageBase & { readonly text: string; readonly profileName?: string }): MetaWebhookPayload =>
    metaWebhook.messages({ ...input, messages: [metaMessage.text(input)] }),
  /** Statuses of messages the number sent. */
  statuses: (input: MetaNumber & { readonly statuses: ReadonlyArray<MetaStatusInput> }): MetaWebhookPayload =>
    callback(input, { statuses: input.statuses.map(metaStatus) }),
  /** One status. */
  status: (input: MetaNumber & MetaStatusInput): MetaWebhookPayload => metaWebhook.statuses({ ...input, statuses: [input] }),
  /**
   * A `phone_number_quality_update`: the number's messaging limit changed. As Meta's reference
   * writes it: the entry's id is the WhatsApp Business Account, the value names the display number
   * (digits), the `event`, the new limit as `current_limit` and `max_daily_conversations_per_business`,
   * and `old_limit` for a messaging limit change.
   */
  numberQualityUpdate: (input: MetaNumberQualityInput): MetaWebhookPayload => ({
    object: "whatsapp_business_account",
    entry: [{
      id: input.wabaId ?? FAKE_WABA_ID,
      changes: [{
        value: {
          display_phone_number: input.displayPhoneNumber,
          event: input.event,
          ...(input.oldLimit === undefined ? {} : { old_limit: input.oldLimit }),
          current_limit: input.currentLimit,
          max_daily_conversations_per_business: input.currentLimit
        },
        field: "phone_number_quality_update"
      }]
    }]
  })
} as const

/** What a `phone_number_quality_update` callback says. */
export interface MetaNumberQualityInput {
  /** The WhatsApp Business Account (`FAKE_WABA_ID` when absent). */
  readonly wabaId?: string
  /** The number's display number, digits only as Meta writes it (`15550783881`). */
  readonly displayPhoneNumber: string
  /** `UPGRADE`, `DOWNGRADE`, `FLAGGED`, `UNFLAGGED`, `ONBOARDING` or `THROUGHPUT_UPGRADE`. */
  readonly event: string
  /** The limit now: `TIER_250`, `TIER_2K`, `TIER_10K`, `TIER_100K`, `TIER_UNLIMITED`, ... */
  readonly currentLimit: string
  /** The limit before (messaging limit changes only). */
  readonly oldLimit?: string
}

/** One inbound message of every type of Meta's reference, from `from`, with wamids `wamid.<prefix>.<type>`. */
export const everyMetaMessage = (from: string, prefix = "example"): ReadonlyArray<MetaMessage> => {
  const at = (type: string) => ({ from, id: `wamid.${prefix}.${type}`, timestamp: 1749416383 })
  const replyTo = { from: "15550783881", id: `wamid.${prefix}.sent` }
  return [
    metaMessage.text({ ...at("text"), text: "Does it come in another color?" }),
    metaMessage.image({ ...at("image"), mediaId: "1003383421387256", caption: "The one on the left" }),
    metaMessage.audio({ ...at("audio"), mediaId: "1003383421387257" }),
    metaMessage.video({ ...at("video"), mediaId: "1003383421387258", caption: "Unboxing" }),
    metaMessage.document({ ...at("document"), mediaId: "1003383421387259", filename: "invoice.pdf", caption: "My invoice" }),
    metaMessage.sticker({ ...at("sticker"), mediaId: "1003383421387260" }),
    metaMessage.location({ ...at("location"), latitude: 37.483307, longitude: -122.148981, name: "Philz Coffee", address: "101 Forest Ave, Palo Alto, CA 94301" }),
    metaMessage.contacts({ ...at("contacts"), contacts: [{ formattedName: "Barbara J. Johnson", firstName: "Barbara", phone: "+1 (415) 555-0123", waId: "14155550123" }] }),
    metaMessage.buttonReply({ ...at("button_reply"), context: replyTo, replyId: "yes", title: "Yes" }),
    metaMessage.listReply({ ...at("list_reply"), context: replyTo, replyId: "priority_express", title: "Express", description: "Next day" }),
    metaMessage.button({ ...at("button"), context: replyTo, payload: "stop", text: "Stop promotions" }),
    metaMessage.reaction({ ...at("reaction"), messageId: replyTo.id, emoji: "\u{1F44D}" }),
    metaMessage.unsupported(at("unsupported"))
  ]
}

/**
 * The statuses of one sent message `wamid.<prefix>.sent` in every state of Meta's reference, in
 * the order they happen: sent, delivered, read; and a failed one (`wamid.<prefix>.failed`) with
 * Meta's error (131047: the 24-hour window was closed).
 */
export const everyMetaStatus = (recipientId: string, prefix = "example"): ReadonlyArray<MetaStatusInput> => [
  { id: `wamid.${prefix}.sent`, status: "sent", recipientId, timestamp: 1749416400 },
  { id: `wamid.${prefix}.sent`, status: "delivered", recipientId, timestamp: 1749416401 },
  { id: `wamid.${prefix}.sent`, status: "read", recipientId, timestamp: 1749416460 },
  {
    id: `wamid.${prefix}.failed`,
    status: "failed",
    recipientId,
    timestamp: 1749416402,
    errors: [{
      code: 131047,
      title: "Re-engagement message",
      message: "Re-engagement message",
      details: "Message failed to send because more than 24 hours have passed since the customer last replied to this number."
    }]
  }
]
