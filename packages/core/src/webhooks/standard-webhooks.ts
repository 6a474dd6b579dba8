/**
 * Standard Webhooks (standardwebhooks.com): every delivery attempt and validation challenge
 * carries, beside the `X-Wasl-*` headers, the three headers its verifiers (the `standardwebhooks`
 * packages, for one) check:
 *
 * - `webhook-id`: the delivery's UUID, the same on every attempt (what a receiver dedupes on);
 * - `webhook-timestamp`: Unix seconds of this attempt, the value of `X-Wasl-Timestamp`;
 * - `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`.
 *
 * The HMAC key is the UTF-8 bytes of the webhook's 32-character secret, the key of
 * `X-Wasl-Signature` too, so one secret serves both schemes. Standard Webhooks verifiers take the
 * key base64-encoded, optionally prefixed `whsec_`: that is {@link standardWebhooksSecret}.
 */
import { Effect } from "effect"
import { Base64 } from "effect/encoding"
import type { HmacSha256 } from "../auth/hmac.ts"

/** The header names, lowercase as the Standard Webhooks specification writes them. */
export const STANDARD_WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature"
} as const

/** The version tag of a `webhook-signature` entry (HMAC-SHA256, symmetric). */
export const STANDARD_SIGNATURE_VERSION = "v1"

/** What Standard Webhooks secrets begin with; verifiers strip it before base64-decoding. */
export const STANDARD_SECRET_PREFIX = "whsec_"

/**
 * The webhook secret in the form Standard Webhooks verifiers take: `whsec_` + base64 of the
 * secret's UTF-8 bytes. `new Webhook(standardWebhooksSecret(webhook.secret))` of the
 * `standardwebhooks` package verifies Wasl's deliveries.
 *
 * @example
 * ```ts
 * standardWebhooksSecret("0123456789abcdef0123456789abcdef")
 * // "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
 * ```
 */
export const standardWebhooksSecret = (secret: string): string => `${STANDARD_SECRET_PREFIX}${Base64.encode(secret)}`

/**
 * The `webhook-signature` value of one request: `v1,` + base64 of `hmac` over
 * `<id>.<timestamp>.<body>`, the body exactly as sent.
 */
export const standardSignature = (
  hmac: HmacSha256,
  id: string,
  timestamp: string,
  body: string
): Effect.Effect<string> =>
  Effect.map(hmac(`${id}.${timestamp}.${body}`), (tag) => `${STANDARD_SIGNATURE_VERSION},${Base64.encode(tag)}`)
