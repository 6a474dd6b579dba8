/**
 * Domain failures. Each maps, in packages/http only, to one status and the
 * Laravel-style body of decisions §1.
 */
import { Schema } from "effect"

/** 401: no or bad credentials. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {}) {}

/** 403: authenticated but not allowed. */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
}) {}

export const forbidden = (message = "This action is unauthorized.") => new Forbidden({ message })

/** 404: unknown, or belongs to another account (never revealed). */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {}) {}

/** 422: field-keyed messages, keys in dot notation (`name.en`, `events.2`). */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  errors: Schema.Record(Schema.String, Schema.Array(Schema.String))
}) {
  get firstMessage(): string {
    const first = Object.values(this.errors)[0]
    return first?.[0] ?? "The given data was invalid."
  }
}

export const invalid = (field: string, message: string) => new ValidationFailed({ errors: { [field]: [message] } })

/** 402: the plan or the balance does not allow it. */
export class PaymentRequired extends Schema.TaggedError<PaymentRequired>()("PaymentRequired", {
  message: Schema.String
}) {}

/** 429: try again after `retryAfter` seconds. */
export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()("TooManyRequests", {
  message: Schema.String,
  retryAfter: Schema.Int
}) {}

/** 410: the thing exists but can no longer be used (an OTP verification that is not live). */
export class Gone extends Schema.TaggedError<Gone>()("Gone", {
  message: Schema.String,
  status: Schema.String
}) {}

/** 422 of OTP verify: a wrong code, with the attempts the verification has left (decisions §7). */
export class InvalidOtpCode extends Schema.TaggedError<InvalidOtpCode>()("InvalidOtpCode", {
  attemptsRemaining: Schema.Int
}) {}

/** 503: a dependency (the messaging provider) failed for now; try again after `retryAfter` seconds. */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  message: Schema.String,
  retryAfter: Schema.Int
}) {}
