/**
 * A delivery as the delivery log answers it: `id` (uuid), `event`, `status`
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

/** One attempt of a delivery, as the delivery log shows it. */
export const DeliveryAttemptResource: Schema.Struct<{
  /** 1 for the first attempt, and so on. */
  readonly number: Schema.Int
  /** When it finished. */
  readonly at: typeof WireTimestamp
  /** The endpoint's status; null when it did not answer. */
  readonly status_code: Schema.NullOr<Schema.Int>
  /** How long it took, in milliseconds. */
  readonly duration_ms: Schema.Int
  /** Why it failed without an answer, or why an answer is a failure; null otherwise. */
  readonly error: Schema.NullOr<Schema.String>
  /** The start of the endpoint's answer (at most 4 KiB); null without one. */
  readonly response: Schema.NullOr<Schema.String>
}> = Schema.Struct({
  number: Schema.Int,
  at: WireTimestamp,
  status_code: Schema.NullOr(Schema.Int),
  duration_ms: Schema.Int,
  error: Schema.NullOr(Schema.String),
  response: Schema.NullOr(Schema.String)
}).annotate({ identifier: "DeliveryAttempt" })

/** A delivery as the delivery log shows it. */
export const DeliveryResource: Schema.Struct<{
  /** The delivery's id (a uuid). */
  readonly id: Schema.String
  /** The event delivered. */
  readonly event: typeof EventName
  readonly status: typeof DeliveryStatus
  /** Its attempts so far, first first. */
  readonly attempts: Schema.$Array<typeof DeliveryAttemptResource>
  /** When the next attempt is due; null once finished. */
  readonly next_attempt_at: Schema.NullOr<typeof WireTimestamp>
  readonly created_at: typeof WireTimestamp
}> = Schema.Struct({
  id: Schema.String,
  event: EventName,
  status: DeliveryStatus,
  attempts: Schema.Array(DeliveryAttemptResource),
  next_attempt_at: Schema.NullOr(WireTimestamp),
  created_at: WireTimestamp
}).annotate({ identifier: "Delivery" })
/** A delivery as the delivery log shows it (see the `DeliveryResource` schema). */
export type DeliveryResource = typeof DeliveryResource.Type

/** The delivery log's shape of a delivery as the repository reads it. */
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
