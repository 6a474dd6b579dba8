/**
 * The messaging channel (ARCHITECTURE rule 3): sends one template to one number through the
 * sending number's provider. Adapters: `sandbox` (a file standing in for the phone) and
 * `whatsapp_cloud` (the WhatsApp Cloud API), chosen by `platform.provider`.
 *
 * The request holds the plaintext code of an authentication template: an adapter hands it to the
 * channel and nowhere else (no log line, no error text).
 */
import { Context, type Effect } from "effect"
import type { ProviderName } from "./platform.ts"
import type { HeaderFormat, TemplateCategory } from "./template.ts"

export interface ProviderPlatform {
  readonly provider: ProviderName
  readonly phoneId: string | null
  readonly displayPhoneNumber: string
  /** The opened access token (whatsapp_cloud). */
  readonly accessToken: string | null
}

export interface HeaderMedia {
  readonly format: Exclude<HeaderFormat, "TEXT">
  readonly filename: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

export interface ProviderRequest {
  readonly platform: ProviderPlatform
  /** The recipient's number, digits only (no `+`). */
  readonly to: string
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
  readonly _tag: "Accepted"
  readonly messageId: string
}

/** The provider refused it for good (the number cannot receive it, the request is invalid). */
export interface ProviderRejected {
  readonly _tag: "Rejected"
  readonly reason: string
}

/** The provider could not take it now (rate limit, outage, credentials): try again later. */
export interface ProviderUnavailable {
  readonly _tag: "Unavailable"
  readonly reason: string
  readonly retryAfterSeconds: number
}

export type ProviderOutcome = ProviderAccepted | ProviderRejected | ProviderUnavailable

export class MessagingProvider extends Context.Service<MessagingProvider, {
  /** Never fails: every answer, network failures included, is one of the three outcomes. */
  readonly send: (request: ProviderRequest) => Effect.Effect<ProviderOutcome>
}>()("@wasl/core/MessagingProvider") {}
