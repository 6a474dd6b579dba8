/**
 * What a delivery sends (spec §6.3, §6.4; decisions §6).
 *
 * - The body `{"time":<seconds.micro>,"event":"<name>","<object key>":<record>}` is serialised
 *   ONCE, when the delivery is queued, and stored as text: every attempt sends, and signs, exactly
 *   those bytes, so a retry is byte-identical and a receiver's idempotency by delivery id is
 *   sound.
 * - The headers are built per attempt: `X-Wasl-Event`, `X-Wasl-Delivery` (the delivery's UUID,
 *   the same on every attempt), `X-Wasl-Timestamp` (Unix seconds of this attempt, fresh every
 *   time) and `X-Wasl-Signature` over `<timestamp>:<body>`.
 */
import { Effect } from "effect"
import { eventObjectKey, type EventName } from "../records/object-kind.ts"
import { signDelivery, WEBHOOK_HEADERS } from "./signature.ts"

/**
 * Unix microseconds as a JSON number with exactly six decimals (`1732210000.000120`): the
 * digits are written, not computed in floating point, so no microsecond is lost or rounded.
 */
export const formatEventTime = (micros: number): string => {
  const whole = Math.floor(micros / 1_000_000)
  const fraction = micros - whole * 1_000_000
  return `${whole}.${String(fraction).padStart(6, "0")}`
}

export interface DeliveryEvent {
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

export interface AttemptHeadersInput {
  readonly event: string
  readonly deliveryId: string
  /** The attempt's time, Unix seconds (whole). */
  readonly timestampSeconds: number
  readonly body: string
  readonly secret: string
}

/** The headers of one attempt (the body's media type included). */
export const attemptHeaders = (input: AttemptHeadersInput): Effect.Effect<Record<string, string>> => {
  const timestamp = String(Math.floor(input.timestampSeconds))
  return Effect.map(signDelivery(input.secret, timestamp, input.body), (signature) => ({
    "Content-Type": "application/json",
    "User-Agent": "Wasl-Webhooks/1",
    [WEBHOOK_HEADERS.event]: input.event,
    [WEBHOOK_HEADERS.delivery]: input.deliveryId,
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.signature]: signature
  }))
}
