/**
 * What a delivery sends.
 *
 * - The body `{"time":<seconds.micro>,"event":"<name>","<object key>":<record>}` is serialised
 *   ONCE, when the delivery is queued, and stored as text: every attempt sends, and signs, exactly
 *   those bytes, so a retry is byte-identical and a receiver's idempotency by delivery id is
 *   sound.
 * - The headers are built per attempt: `X-Wasl-Event`, `X-Wasl-Delivery` (the delivery's UUID,
 *   the same on every attempt), `X-Wasl-Timestamp` (Unix seconds of this attempt, fresh every
 *   time) and `X-Wasl-Signature` over `<timestamp>:<body>`; and the Standard Webhooks ones
 *   (standard-webhooks.ts): `webhook-id` (the delivery's UUID), `webhook-timestamp` (the same
 *   seconds) and `webhook-signature` over `<id>.<timestamp>.<body>`, with the same key.
 */
import { Effect, Option } from "effect"
import { Hex } from "effect/encoding"
import { SecretBox } from "../auth/secret-box.ts"
import { eventObjectKey, type EventName } from "../records/object-kind.ts"
import { hmacSha256 } from "../auth/hmac.ts"
import { SIGNATURE_PREFIX, WEBHOOK_HEADERS } from "./signature.ts"
import { STANDARD_WEBHOOK_HEADERS, standardSignature } from "./standard-webhooks.ts"

/**
 * Unix microseconds as a JSON number with exactly six decimals (`1732210000.000120`): the
 * digits are written, not computed in floating point, so no microsecond is lost or rounded.
 */
export const formatEventTime = (micros: number): string => {
  const whole = Math.floor(micros / 1_000_000)
  const fraction = micros - whole * 1_000_000
  return `${whole}.${String(fraction).padStart(6, "0")}`
}

/** The event a delivery body is made of. */
export interface DeliveryEvent {
  /** The event's name. */
  readonly name: EventName
  /** When the event was queued (the outbox's `occurredAtMicros`). */
  readonly occurredAtMicros: number
  /** The affected record in its REST shape (a JSON object). */
  readonly payload: unknown
}

/** The delivery body's text. The payload's keys keep their order. */
export const deliveryBody = (event: DeliveryEvent): string => {
  const record = JSON.stringify(event.payload)
  if (record === undefined || !record.startsWith("{")) {
    throw new Error(`a delivery payload must be a JSON object, received ${record ?? typeof event.payload}`)
  }
  return `{"time":${formatEventTime(event.occurredAtMicros)},"event":${JSON.stringify(event.name)},${
    JSON.stringify(eventObjectKey(event.name))
  }:${record}}`
}

/** The start every `deliveryBody` has: the event's time in seconds, written first. */
const BODY_TIME = /^\{"time":(\d+\.\d{6}),/

/**
 * When the event of a delivery body happened, in epoch milliseconds, read from the `time` that
 * `deliveryBody` writes first (without parsing the record after it); undefined for another text.
 */
export const deliveryEventTimeMillis = (body: string): number | undefined => {
  const time = BODY_TIME.exec(body)?.[1]
  return time === undefined ? undefined : Number(time) * 1000
}

/**
 * Signs delivery attempts with one webhook's secret, its HMAC key imported once since a worker
 * signs many attempts with the same secret: `sha256=` + HMAC-SHA256(secret, `<timestamp>:<body>`),
 * as `signDelivery` (signature.ts) — tested to agree — and the Standard Webhooks signature.
 */
export interface DeliverySigner {
  /** The `X-Wasl-Signature` value of an attempt: `sha256=<hex>` over `<timestamp>:<body>`. */
  readonly sign: (timestamp: string, body: string) => Effect.Effect<string>
  /** The `webhook-signature` value of an attempt: `v1,<base64>` over `<id>.<timestamp>.<body>`. */
  readonly signStandard: (id: string, timestamp: string, body: string) => Effect.Effect<string>
}

/** A signer for the (opened) secret, keyed with its UTF-8 bytes. */
export const deliverySigner = (secret: string): Effect.Effect<DeliverySigner> =>
  Effect.map(hmacSha256(new TextEncoder().encode(secret)), (hmac) => ({
    sign: (timestamp, body) => Effect.map(hmac(`${timestamp}:${body}`), (tag) => `${SIGNATURE_PREFIX}${Hex.encode(tag)}`),
    signStandard: (id, timestamp, body) => standardSignature(hmac, id, timestamp, body)
  }))

/** What the headers of one attempt are made of. */
export interface AttemptHeadersInput {
  /** The event's name (`X-Wasl-Event`). */
  readonly event: string
  /** The delivery's UUID (`X-Wasl-Delivery`, `webhook-id`), the same on every attempt. */
  readonly deliveryId: string
  /** The attempt's time, Unix seconds (whole). */
  readonly timestampSeconds: number
  /** The body the signatures cover. */
  readonly body: string
  /** Signs with the webhook's secret. */
  readonly signer: DeliverySigner
}

/** The headers of one attempt (the body's media type included). */
export const attemptHeaders = (input: AttemptHeadersInput): Effect.Effect<Record<string, string>> => {
  const timestamp = String(Math.floor(input.timestampSeconds))
  return Effect.zipWith(
    input.signer.sign(timestamp, input.body),
    input.signer.signStandard(input.deliveryId, timestamp, input.body),
    (signature, standard) => ({
      "Content-Type": "application/json",
      "User-Agent": "Wasl-Webhooks/1",
      [WEBHOOK_HEADERS.event]: input.event,
      [WEBHOOK_HEADERS.delivery]: input.deliveryId,
      [WEBHOOK_HEADERS.timestamp]: timestamp,
      [WEBHOOK_HEADERS.signature]: signature,
      [STANDARD_WEBHOOK_HEADERS.id]: input.deliveryId,
      [STANDARD_WEBHOOK_HEADERS.timestamp]: timestamp,
      [STANDARD_WEBHOOK_HEADERS.signature]: standard
    })
    // One after the other: on the Node deployment's `Mac` each signs synchronously, and running
    // them concurrently would fork two fibers per attempt for nothing.
  )
}

/**
 * Opens sealed webhook secrets into signers, remembering the last `capacity` of them (least
 * recently used out), so a worker opens and imports each webhook's secret once rather than per
 * attempt. A secret that does not open (the server key changed) is remembered as none too.
 */
export const makeSignerCache = (
  capacity: number = 1000
): Effect.Effect<(sealed: string) => Effect.Effect<Option.Option<DeliverySigner>>, never, SecretBox> =>
  Effect.gen(function*() {
    const box = yield* SecretBox
    const cache = new Map<string, Option.Option<DeliverySigner>>()
    return (sealed: string): Effect.Effect<Option.Option<DeliverySigner>> =>
      Effect.suspend(() => {
        const hit = cache.get(sealed)
        if (hit !== undefined) {
          cache.delete(sealed)
          cache.set(sealed, hit)
          return Effect.succeed(hit)
        }
        return Effect.flatMap(box.open(sealed), (secret) =>
          Effect.map(
            Option.isNone(secret) ? Effect.succeedNone : Effect.asSome(deliverySigner(secret.value)),
            (signer) => {
              cache.set(sealed, signer)
              if (cache.size > capacity) cache.delete(cache.keys().next().value!)
              return signer
            }
          ))
      })
  })

/** No cache: opens the secret for this one attempt. */
export const openSigner = (sealed: string): Effect.Effect<Option.Option<DeliverySigner>, never, SecretBox> =>
  SecretBox.use((box) =>
    Effect.flatMap(box.open(sealed), (secret) =>
      Option.isNone(secret) ? Effect.succeedNone : Effect.asSome(deliverySigner(secret.value))))
