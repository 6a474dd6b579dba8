/**
 * The messaging channel: sends one template to one number through the sending number's provider.
 * Adapters: `sandbox` (a file standing in for the phone) and `whatsapp_cloud` (the WhatsApp Cloud
 * API), chosen by `platform.provider`.
 *
 * The request holds the plaintext code of an authentication template: an adapter hands it to the
 * channel and nowhere else (no log line, no error text).
 */
import { Context, type Effect } from "effect"
import type { ProviderName } from "./platform.ts"
import type { HeaderFormat, TemplateCategory } from "./template.ts"

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

/** What the MessagingProvider port offers (implement this to write an adapter). */
export interface MessagingProviderShape {
  /** Never fails: every answer, network failures included, is one of the three outcomes. */
  readonly send: (request: ProviderRequest) => Effect.Effect<ProviderOutcome>
}

/** @ignore */
export const MessagingProviderBase: Context.ServiceClass<
  MessagingProvider,
  "@wasl/core/MessagingProvider",
  MessagingProviderShape
> = Context.Service<MessagingProvider, MessagingProviderShape>()("@wasl/core/MessagingProvider")

/**
 * The messaging channel: sends one template message to one number through the sending number's
 * provider.
 */
export class MessagingProvider extends MessagingProviderBase {}
