/**
 * The port through which webhook requests leave the service: the validation challenge and every
 * delivery attempt. The adapter (`WebhookTransportHttp`) owns the network rules: https only, the
 * address actually dialled checked against address-policy.ts, no redirects followed, the timeout.
 * It never fails: every way a request can go wrong is a `Failed` answer the caller records.
 */
import { Context, type Duration, type Effect } from "effect"

/** One POST to a webhook endpoint. */
export interface WebhookRequest {
  /** The endpoint's URL (https). */
  readonly url: string
  /** The headers to send (the signature headers included). */
  readonly headers: Readonly<Record<string, string>>
  /** Sent byte-exact as UTF-8: the signature is over these bytes. */
  readonly body: string
  /** How long to wait for the answer before the request counts as failed. */
  readonly timeout: Duration.Duration
}

/**
 * How a request ended: `Answered` with the endpoint's status (any status, 3xx included: redirects
 * are not followed), or `Failed` without an answer (timeout, refused address, connection or TLS
 * error) with the reason.
 */
export type WebhookResponse =
  | {
    readonly _tag: "Answered"
    readonly status: number
    /** The first 4 KiB of the response body. */
    readonly body: string
    readonly durationMillis: number
  }
  | { readonly _tag: "Failed"; readonly error: string; readonly durationMillis: number }

/** What the WebhookTransport port offers (implement this to write an adapter). */
export interface WebhookTransportShape {
  /** Sends the request; never fails: every way it can go wrong is a `Failed` answer. */
  readonly post: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
}

const WebhookTransportBase: Context.ServiceClass<
  WebhookTransport,
  "@wasl/core/WebhookTransport",
  WebhookTransportShape
> = Context.Service<WebhookTransport, WebhookTransportShape>()("@wasl/core/WebhookTransport")

/** Sends webhook requests: validation challenges and delivery attempts. */
export class WebhookTransport extends WebhookTransportBase {}
