/**
 * The messaging channel: sends one template, or one free-form text, to one number through the
 * sending number's provider; tells it which received message the team has read; fetches the media
 * of a received message.
 * Adapters: `sandbox` (a file standing in for the phone) and `whatsapp_cloud` (the WhatsApp Cloud
 * API), chosen by `platform.provider`.
 *
 * The request holds the plaintext code of an authentication template: an adapter hands it to the
 * channel and nowhere else (no log line, no error text).
 */
import { Context, type Effect } from "effect"
import type { NumberHealth, ProviderName } from "./platform.ts"
import type { HeaderFormat, TemplateCategory } from "./template.ts"
import type { FilledParameters } from "./template-variables.ts"

/** The sending number as a provider needs it. */
export interface ProviderPlatform {
  /** Which provider sends. */
  readonly provider: ProviderName
  /** The provider's phone number id (whatsapp_cloud). */
  readonly phoneId: string | null
  /** The phone number recipients see. */
  readonly displayPhoneNumber: string
  /** The opened access token (whatsapp_cloud). */
  readonly accessToken: string | null
}

/** The file of a media header. */
export interface HeaderMedia {
  /** The header's media format. */
  readonly format: Exclude<HeaderFormat, "TEXT">
  /** The file's name. */
  readonly filename: string
  /** Its media type (`image/png`, ...). */
  readonly contentType: string
  /** Its content. */
  readonly bytes: Uint8Array
}

/** One template message to send to one number. */
export interface ProviderRequest {
  /** The sending number. */
  readonly platform: ProviderPlatform
  /** The recipient's number, digits only (no `+`). */
  readonly to: string
  /** The template, as the provider knows it: its name, language and category. */
  readonly template: {
    readonly name: string
    readonly language: string
    readonly category: TemplateCategory
  }
  /** AUTHENTICATION templates: the one-time password (body `{{1}}` and the copy-code button). */
  readonly code?: string
  /** A template with an offer-code button: the value to copy, and the button's index. */
  readonly offerCode?: { readonly index: number; readonly code: string }
  /** A template with a media header: the file to show. */
  readonly headerMedia?: HeaderMedia
  /** A template with variables: the text of each, per component (`{{1}}` first). */
  readonly parameters?: FilledParameters
  /**
   * A string the provider hands back with each status of the message (WhatsApp's
   * `biz_opaque_callback_data`, at most 512 characters): how a send whose answer was lost (its
   * process died) is recognised by its statuses.
   */
  readonly tracking?: string
}

/** The provider took the message; `messageId` is its id for it (`wamid...`). */
export interface ProviderAccepted {
  /** Accepted. */
  readonly _tag: "Accepted"
  /** The provider's id of the message. */
  readonly messageId: string
}

/** The provider refused it for good (the number cannot receive it, the request is invalid). */
export interface ProviderRejected {
  /** Rejected. */
  readonly _tag: "Rejected"
  /** Why, for logs (never shown to the caller, never holding the code). */
  readonly reason: string
}

/** The provider could not take it now (rate limit, outage, credentials): try again later. */
export interface ProviderUnavailable {
  /** Unavailable. */
  readonly _tag: "Unavailable"
  /** Why, for logs. */
  readonly reason: string
  /** When to try again, in seconds (the 503's Retry-After). */
  readonly retryAfterSeconds: number
}

/** How a send ended: accepted, rejected for good, or not taken now. */
export type ProviderOutcome = ProviderAccepted | ProviderRejected | ProviderUnavailable

/** The provider took the read receipt. */
export interface ProviderMarked {
  /** Marked. */
  readonly _tag: "Marked"
}

/** How a read receipt ended: taken, rejected for good, or not taken now. */
export type ReadOutcome = ProviderMarked | ProviderRejected | ProviderUnavailable

/** The media's bytes, as the provider holds them. */
export interface ProviderMediaFetched {
  /** Fetched. */
  readonly _tag: "Fetched"
  /** The file's content. */
  readonly bytes: Uint8Array
  /** Its media type as the provider gives it (`image/jpeg`, ...). */
  readonly mimeType: string
}

/** The media is larger than the caller's limit: it was not read whole. */
export interface ProviderMediaTooLarge {
  /** TooLarge. */
  readonly _tag: "TooLarge"
}

/** How a media fetch ended: the bytes, too large, gone for good (rejected), or not now. */
export type MediaOutcome = ProviderMediaFetched | ProviderMediaTooLarge | ProviderRejected | ProviderUnavailable

/** What the provider says of the number now (its health). */
export interface ProviderNumberRead {
  /** Read. */
  readonly _tag: "Read"
  /** Its verified name, code verification status, quality rating and messaging limit tier. */
  readonly health: NumberHealth
}

/** How reading a number ended: its health, rejected for good (a wrong token or id), or not now. */
export type NumberReadOutcome = ProviderNumberRead | ProviderRejected | ProviderUnavailable

/** What the MessagingProvider port offers (implement this to write an adapter). */
export interface MessagingProviderShape {
  /** Never fails: every answer, network failures included, is one of the three outcomes. */
  readonly send: (request: ProviderRequest) => Effect.Effect<ProviderOutcome>
  /**
   * Sends a free-form text (1 to 4096 characters) to `to` (digits only). The channel takes it only
   * inside the 24-hour customer-service window; keeping to it is the caller's rule. Never fails.
   */
  readonly sendText: (platform: ProviderPlatform, to: string, text: string) => Effect.Effect<ProviderOutcome>
  /**
   * Tells the channel the team has read the received message `providerMessageId` (the customer
   * sees the blue ticks; the channel marks earlier ones read too). Never fails.
   */
  readonly markRead: (platform: ProviderPlatform, providerMessageId: string) => Effect.Effect<ReadOutcome>
  /**
   * The bytes of a received message's media (`mediaId` from the channel's payload), read only up
   * to `maxBytes`: a larger file answers `TooLarge`. Never fails.
   */
  readonly fetchMedia: (platform: ProviderPlatform, mediaId: string, maxBytes: number) => Effect.Effect<MediaOutcome>
  /**
   * What the provider says of the number now: WhatsApp Cloud answers Meta's verified name, code
   * verification status, quality rating and messaging limit tier; the sandbox, which has no Meta
   * number behind it, answers them all null. Never fails.
   */
  readonly readNumber: (platform: ProviderPlatform) => Effect.Effect<NumberReadOutcome>
}

const MessagingProviderBase: Context.ServiceClass<
  MessagingProvider,
  "@wasl/core/MessagingProvider",
  MessagingProviderShape
> = Context.Service<MessagingProvider, MessagingProviderShape>()("@wasl/core/MessagingProvider")

/**
 * The messaging channel: sends one template message to one number through the sending number's
 * provider.
 */
export class MessagingProvider extends MessagingProviderBase {}
