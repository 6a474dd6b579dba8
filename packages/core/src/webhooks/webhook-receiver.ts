/**
 * The receiving end of a webhook: what an endpoint must do with Wasl's requests. Wasl itself
 * never receives webhooks; this is for the in-memory receivers of `@wasl/adapters/memory`, for
 * tests, and for anyone writing a receiver in TypeScript.
 *
 * A request is accepted only when its `X-Wasl-Signature` is HMAC-SHA256(secret, `<timestamp>:<raw
 * body>`) for its `X-Wasl-Timestamp`, compared in constant time, and that timestamp is within
 * `RECEIVER_TOLERANCE_SECONDS` of the receiver's clock (a replayed old request is refused);
 * otherwise the answer is 401. An accepted validation challenge (event `webhook-validation`) is
 * answered 200 with `{"signature": "sha256=" + HMAC-SHA256(secret, challenge)}`; an accepted
 * delivery is answered 200 (the receiver then dedupes on `X-Wasl-Delivery`).
 */
import { DateTime, Effect } from "effect"
import { challengeAnswer, jsonStringField, VALIDATION_EVENT, verifyDelivery, WEBHOOK_HEADERS } from "./signature.ts"

/** How far a request's timestamp may be from the receiver's clock, either way: 300 s. */
export const RECEIVER_TOLERANCE_SECONDS = 300

/** A request as a receiver sees it: its headers (any case) and its raw body. */
export interface ReceivedRequest {
  /** The request's headers, by name (any case). */
  readonly headers: Readonly<Record<string, string>>
  /** The raw body, exactly as received. */
  readonly body: string
}

/**
 * What a receiver makes of a request: a verified delivery (its event and delivery id), a verified
 * validation challenge, or a rejection with its reason.
 */
export type ReceiverVerdict =
  | { readonly _tag: "Delivery"; readonly event: string; readonly deliveryId: string }
  | { readonly _tag: "Challenge"; readonly challenge: string }
  | { readonly _tag: "Rejected"; readonly reason: string }

/** The answer a correct receiver sends. */
export interface ReceiverAnswer {
  /** The HTTP status: 200 or 401. */
  readonly status: number
  /** The JSON body (empty for an accepted delivery). */
  readonly body: string
}

/** A header's value, its name matched without regard to case (HTTP header names are). */
export const headerValue = (headers: Readonly<Record<string, string>>, name: string): string | undefined => {
  const wanted = name.toLowerCase()
  for (const key of Object.keys(headers)) if (key.toLowerCase() === wanted) return headers[key]
  return undefined
}

const rejected = (reason: string): ReceiverVerdict => ({ _tag: "Rejected", reason })

/**
 * Checks a request with the webhook's `secret` at the receiver's time `now`: the signature
 * headers present, the timestamp within `RECEIVER_TOLERANCE_SECONDS`, the signature right.
 *
 * @example
 * ```ts
 * const verdict = yield* verifyWebhookRequest(secret, { headers, body }, yield* DateTime.now)
 * if (verdict._tag === "Delivery") yield* handle(verdict.event, verdict.deliveryId, body)
 * ```
 */
export const verifyWebhookRequest = (
  secret: string,
  request: ReceivedRequest,
  now: DateTime.Utc
): Effect.Effect<ReceiverVerdict> =>
  Effect.gen(function*() {
    const signature = headerValue(request.headers, WEBHOOK_HEADERS.signature)
    const timestamp = headerValue(request.headers, WEBHOOK_HEADERS.timestamp)
    if (signature === undefined || timestamp === undefined) return rejected("The signature headers are missing.")
    if (!/^\d{1,15}$/.test(timestamp)) return rejected("The timestamp is not Unix seconds.")
    const skew = Math.abs(DateTime.toEpochMillis(now) / 1000 - Number(timestamp))
    if (skew > RECEIVER_TOLERANCE_SECONDS) return rejected("The timestamp is too far from the receiver's clock.")
    if (!(yield* verifyDelivery(secret, timestamp, request.body, signature))) {
      return rejected("The signature does not match.")
    }
    const event = headerValue(request.headers, WEBHOOK_HEADERS.event) ?? ""
    if (event === VALIDATION_EVENT) {
      const challenge = jsonStringField(request.body, "challenge")
      return challenge === undefined ? rejected("The challenge is missing.") : { _tag: "Challenge", challenge }
    }
    return { _tag: "Delivery", event, deliveryId: headerValue(request.headers, WEBHOOK_HEADERS.delivery) ?? "" }
  })

/**
 * The answer of a correct receiver: 401 unless verified; 200 with `{"signature": ...}` for a
 * validation challenge; 200 with an empty body for a delivery.
 *
 * @example
 * ```ts
 * const { status, body } = yield* answerWebhookRequest(secret, { headers, body: raw }, yield* DateTime.now)
 * return new Response(body, { status, headers: { "Content-Type": "application/json" } })
 * ```
 */
export const answerWebhookRequest = (
  secret: string,
  request: ReceivedRequest,
  now: DateTime.Utc
): Effect.Effect<ReceiverAnswer> =>
  Effect.flatMap(verifyWebhookRequest(secret, request, now), (verdict) => {
    switch (verdict._tag) {
      case "Rejected":
        return Effect.succeed({ status: 401, body: JSON.stringify({ message: verdict.reason }) })
      case "Challenge":
        return Effect.map(
          challengeAnswer(secret, verdict.challenge),
          (signature) => ({ status: 200, body: JSON.stringify({ signature }) })
        )
      case "Delivery":
        return Effect.succeed({ status: 200, body: "" })
    }
  })
