/**
 * The port through which webhook requests leave the service: the validation challenge
 * (decisions §6) and every delivery attempt (spec §6.3). The adapter (`WebhookTransportHttp`)
 * owns the network rules: https only, the address actually dialled checked against
 * address-policy.ts, no redirects followed, the timeout. It never fails: every way a request can
 * go wrong is a `Failed` answer the caller records.
 */
import { Context, type Duration, type Effect } from "effect"

export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** Sent byte-exact as UTF-8: the signature is over these bytes. */
  readonly body: string
  readonly timeout: Duration.Duration
}

export type WebhookResponse =
  | {
    readonly _tag: "Answered"
    readonly status: number
    /** The first 4 KiB of the response body. */
    readonly body: string
    readonly durationMillis: number
  }
  | { readonly _tag: "Failed"; readonly error: string; readonly durationMillis: number }

export class WebhookTransport extends Context.Service<WebhookTransport, {
  readonly post: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
}>()("@wasl/core/WebhookTransport") {}
