/**
 * A delivery as the delivery log answers it (decisions §6): `id` (uuid), `event`, `status`
 * (pending | succeeded | failed), `attempts` [{ number, at, status_code, duration_ms, error,
 * response }], `next_attempt_at`, and `created_at`. `response` is the start of the endpoint's
 * answer (at most 4 KiB), kept for debugging an endpoint; `error` says why an attempt failed
 * without an answer (timeout, refused address, TLS) or why an answer is a failure (a redirect).
 */
import { Schema } from "effect"
import { EventName } from "../records/object-kind.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import type { DeliveryView } from "./delivery-repository.ts"
import { DeliveryStatus } from "./delivery-state.ts"

export const DeliveryAttemptResource = Schema.Struct({
  number: Schema.Int,
  at: WireTimestamp,
  status_code: Schema.NullOr(Schema.Int),
  duration_ms: Schema.Int,
  error: Schema.NullOr(Schema.String),
  response: Schema.NullOr(Schema.String)
}).annotate({ identifier: "DeliveryAttempt" })

export const DeliveryResource = Schema.Struct({
  id: Schema.String,
  event: EventName,
  status: DeliveryStatus,
  attempts: Schema.Array(DeliveryAttemptResource),
  next_attempt_at: Schema.NullOr(WireTimestamp),
  created_at: WireTimestamp
}).annotate({ identifier: "Delivery" })
export type DeliveryResource = typeof DeliveryResource.Type

export const toDeliveryResource = (view: DeliveryView): DeliveryResource => ({
  id: view.id,
  event: view.event,
  status: view.status,
  attempts: view.attempts.map((a) => ({
    number: a.number,
    at: a.at,
    status_code: a.statusCode,
    duration_ms: a.durationMillis,
    error: a.error,
    response: a.responseExcerpt
  })),
  next_attempt_at: view.nextAttemptAt,
  created_at: view.createdAt
})
