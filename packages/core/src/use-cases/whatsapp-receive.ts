/**
 * The receiving end of Meta's WhatsApp Cloud API webhooks: the callback URL's verification
 * (`hub.challenge`) and the callbacks themselves, which are stored as they came (the inbox) for
 * the worker to take in. Nothing of a callback is read before its signature is checked.
 */
import { DateTime, Effect, Redacted } from "effect"
import { constantTimeEqual } from "../webhooks/signature.ts"
import { metaSignatureCheck, metaSigner } from "../whatsapp/meta-signature.ts"
import { metaWebhookText } from "../whatsapp/meta-webhook-shape.ts"
import { WhatsAppInbox } from "../whatsapp/whatsapp-inbox.ts"
import { WhatsAppWebhookSettings } from "../whatsapp/whatsapp-webhook-settings.ts"

/**
 * What became of a callback: `stored` (authentic and of Meta's shape: in the inbox),
 * `unauthentic` (its signature missing or wrong: nothing kept), `ignored` (authentic, but not
 * JSON of Meta's shape: nothing kept, and answered as received, since Meta retries anything else).
 */
export type WhatsAppReceipt = "stored" | "unauthentic" | "ignored"

/** Meta's verification request of the callback URL, as its query gives it. */
export interface WhatsAppSubscription {
  /** `hub.mode`: `subscribe`. */
  readonly mode: string | undefined
  /** `hub.verify_token`: the verify token as Meta was told it. */
  readonly verifyToken: string | undefined
  /** `hub.challenge`: what to answer. */
  readonly challenge: string | undefined
}

/** The receiver of one deployment's settings: keyed once, then used for every request. */
export interface WhatsAppReceiver {
  /** The challenge to answer when the request is a subscription with the right verify token; else undefined. */
  readonly verify: (subscription: WhatsAppSubscription) => Effect.Effect<string | undefined>
  /** Checks a callback's signature (`X-Hub-Signature-256`, undefined when missing), then stores it or not. */
  readonly receive: (body: Uint8Array, signature: string | undefined) => Effect.Effect<WhatsAppReceipt, never, WhatsAppInbox>
}

/**
 * The receiver of the settings (`WhatsAppWebhookSettings`), or undefined when they are not set
 * (then there is nothing to receive with). The verify token is compared as its HMAC under the app
 * secret, in constant time, so neither its content nor its length shows in the time an answer takes.
 */
export const makeWhatsAppReceiver: Effect.Effect<WhatsAppReceiver | undefined> = Effect.gen(function*() {
  const settings = yield* WhatsAppWebhookSettings
  if (settings === undefined) return undefined
  const appSecret = Redacted.value(settings.appSecret)
  const check = yield* metaSignatureCheck(appSecret)
  const sign = yield* metaSigner(appSecret)
  const expectedToken = yield* sign(Redacted.value(settings.verifyToken))
  const verify = (subscription: WhatsAppSubscription) =>
    subscription.mode !== "subscribe" || subscription.verifyToken === undefined || subscription.challenge === undefined
      ? Effect.succeed(undefined)
      : Effect.map(sign(subscription.verifyToken), (given) => constantTimeEqual(given, expectedToken) ? subscription.challenge : undefined)
  const receive = (body: Uint8Array, signature: string | undefined) =>
    Effect.gen(function*() {
      if (!(yield* check(body, signature))) return "unauthentic" as const
      const text = metaWebhookText(body)
      if (text === undefined) return "ignored" as const
      yield* (yield* WhatsAppInbox).insert(text, yield* DateTime.now)
      return "stored" as const
    })
  return { verify, receive }
})
