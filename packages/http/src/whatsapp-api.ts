/**
 * The callback URL of Meta's WhatsApp Cloud API webhooks, `/api/whatsapp/webhook`: Meta's
 * verification of the URL (GET) and its callbacks (POST). No Wasl credentials and no rate limit:
 * Meta authenticates with the verify token and signs every callback with the app's secret, and
 * retries whatever is not answered 200, so a limit would only make it send again.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Forbidden403, NotFound404, Unauthenticated401 } from "./errors.ts"

/** Where Meta is told to call (`<public URL>/api/whatsapp/webhook`). */
export const WHATSAPP_WEBHOOK_PATH = "/api/whatsapp/webhook"

const SETTINGS_NOTE =
  "Answers 404 unless the server has both WASL_WHATSAPP_APP_SECRET and WASL_WHATSAPP_VERIFY_TOKEN."

/** The query of Meta's verification request. */
export type VerifyQuery = Schema.Struct<{
  readonly "hub.mode": Schema.optionalKey<Schema.String>
  readonly "hub.verify_token": Schema.optionalKey<Schema.String>
  readonly "hub.challenge": Schema.optionalKey<Schema.String>
}>

const VerifyQuery: VerifyQuery = Schema.Struct({
  "hub.mode": Schema.optionalKey(Schema.String.annotate({ description: "`subscribe`." })),
  "hub.verify_token": Schema.optionalKey(Schema.String.annotate({ description: "The verify token set in the Meta app's webhook settings." })),
  "hub.challenge": Schema.optionalKey(Schema.String.annotate({ description: "What to answer, exactly." }))
})

/** The challenge echoed, as text/plain. */
export type Challenge = Schema.String

const Challenge: Challenge = Schema.String.pipe(HttpApiSchema.asText()).annotate({ description: "The hub.challenge, exactly." })

/** `GET /api/whatsapp/webhook`: Meta verifies the callback URL. */
export const VerifyWhatsAppWebhookEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "verify",
  "GET",
  "/whatsapp/webhook",
  never,
  Schema.toCodecStringTree<VerifyQuery>,
  never,
  never,
  Schema.toCodecJson<Challenge>,
  Schema.toCodecJson<typeof Forbidden403 | typeof NotFound404>
> = HttpApiEndpoint.get("verify", "/whatsapp/webhook", {
  query: VerifyQuery,
  success: Challenge,
  error: [Forbidden403, NotFound404]
}).annotate(OpenApi.Summary, "Verify the WhatsApp callback URL (Meta)").annotate(
  OpenApi.Description,
  "Meta's verification of the callback URL: 200 text/plain with exactly hub.challenge when hub.mode is subscribe and hub.verify_token " +
    "is the server's verify token (compared in constant time); else 403. " + SETTINGS_NOTE
)

/** A callback's body, taken as its raw bytes: its signature is over them. */
export type CallbackBody = Schema.Uint8Array

const CallbackBody: CallbackBody = Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/json" })).annotate({
  description: "A WhatsApp Business Account callback as Meta sends it: {\"object\":\"whatsapp_business_account\",\"entry\":[…]}."
})

/** The signature header of a callback (header names arrive lower-cased). */
export type CallbackHeaders = Schema.Struct<{ readonly "x-hub-signature-256": Schema.optionalKey<Schema.String> }>

const CallbackHeaders: CallbackHeaders = Schema.Struct({
  "x-hub-signature-256": Schema.optionalKey(Schema.String.annotate({
    description: "X-Hub-Signature-256: sha256=<lowercase hex HMAC-SHA256 of the raw body, keyed with the Meta app's secret>."
  }))
})

/** The answer to a callback: 200 with no body. */
export type Received = Schema.Void

const Received: Received = HttpApiSchema.Empty(200).annotate({ description: "Received (stored for processing, or not Meta's shape and ignored)." })

/** `POST /api/whatsapp/webhook`: one of Meta's callbacks (messages, statuses). */
export const ReceiveWhatsAppWebhookEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "receive",
  "POST",
  "/whatsapp/webhook",
  never,
  never,
  CallbackBody,
  CallbackHeaders,
  Received,
  // Without codecs: the body is the request's bytes, not JSON to decode.
  typeof Unauthenticated401 | typeof NotFound404
> = HttpApiEndpoint.post("receive", "/whatsapp/webhook", {
  disableCodecs: true,
  payload: CallbackBody,
  headers: CallbackHeaders,
  success: Received,
  error: [Unauthenticated401, NotFound404]
}).annotate(OpenApi.Summary, "Receive a WhatsApp callback (Meta)").annotate(
  OpenApi.Description,
  "One of Meta's callbacks. X-Hub-Signature-256 must be sha256=<lowercase hex HMAC-SHA256 of the raw body, keyed with the Meta app's secret>, " +
    "checked in constant time before the body is read; missing or wrong: 401 and nothing kept. Signed right, the body is stored as it came and " +
    "answered 200 at once, and the worker processes it (messages, statuses); a signed body that is not JSON of Meta's shape is answered 200 and " +
    "dropped (Meta retries anything else), counted in wasl_whatsapp_webhooks_total. Bodies over 1 MiB: 413. " + SETTINGS_NOTE
)

const WhatsAppGroupBase: HttpApiGroup.AddPrefix<
  HttpApiGroup.HttpApiGroup<"whatsapp", typeof VerifyWhatsAppWebhookEndpoint | typeof ReceiveWhatsAppWebhookEndpoint>,
  "/api"
> = HttpApiGroup.make("whatsapp").add(VerifyWhatsAppWebhookEndpoint).add(ReceiveWhatsAppWebhookEndpoint).prefix("/api").annotate(
  OpenApi.Description,
  "Meta's WhatsApp Cloud API webhooks: the callback URL to give the Meta app (<public URL>/api/whatsapp/webhook). " +
    "Authenticated by Meta's verify token and signature, not by Wasl credentials; never rate limited."
)

/** Meta's WhatsApp webhooks: `GET` and `POST /api/whatsapp/webhook`. */
export class WhatsAppGroup extends WhatsAppGroupBase {}
