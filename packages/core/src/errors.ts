/**
 * Domain failures. Each maps, in packages/http only, to one status and a Laravel-style body
 * (`{ message }`, or `{ message, errors }` for a 422).
 */
import type { Cause } from "effect"
import { Schema } from "effect"

const UnauthenticatedBase: Schema.Class<
  Unauthenticated,
  Schema.TaggedStruct<"Unauthenticated", {}>,
  Cause.YieldableError
> = Schema.TaggedError<Unauthenticated>()("Unauthenticated", {})

/** The message of every {@link Unauthenticated}, as a 401 answers it. */
export const UNAUTHENTICATED_MESSAGE = "Unauthenticated."

/** 401: no or bad credentials. */
export class Unauthenticated extends UnauthenticatedBase {
  /** Always {@link UNAUTHENTICATED_MESSAGE}. */
  override get message(): string {
    return UNAUTHENTICATED_MESSAGE
  }
}

const ForbiddenBase: Schema.Class<
  Forbidden,
  Schema.TaggedStruct<"Forbidden", { readonly message: Schema.String }>,
  Cause.YieldableError
> = Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
})

/** 403: authenticated but not allowed; `message` says why. */
export class Forbidden extends ForbiddenBase {}

/** A {@link Forbidden} with Laravel's default message, or `message`. */
export const forbidden = (message: string = "This action is unauthorized."): Forbidden => new Forbidden({ message })

const NotFoundBase: Schema.Class<NotFound, Schema.TaggedStruct<"NotFound", {}>, Cause.YieldableError> = Schema
  .TaggedError<NotFound>()("NotFound", {})

/** The message of every {@link NotFound}, as a 404 answers it. */
export const NOT_FOUND_MESSAGE = "Not found."

/** 404: unknown, or belongs to another account (never revealed). */
export class NotFound extends NotFoundBase {
  /** Always {@link NOT_FOUND_MESSAGE}. */
  override get message(): string {
    return NOT_FOUND_MESSAGE
  }
}

const ValidationFailedBase: Schema.Class<
  ValidationFailed,
  Schema.TaggedStruct<"ValidationFailed", {
    readonly errors: Schema.$Record<Schema.String, Schema.$Array<Schema.String>>
  }>,
  Cause.YieldableError
> = Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  errors: Schema.Record(Schema.String, Schema.Array(Schema.String))
})

/** 422: field-keyed messages, keys in dot notation (`name.en`, `events.2`). */
export class ValidationFailed extends ValidationFailedBase {
  /**
   * The first message of the first field, or Laravel's generic "The given data was invalid.": what
   * a 422 answers as its `message`, and what `String(error)` shows.
   */
  override get message(): string {
    const first = Object.values(this.errors)[0]
    return first?.[0] ?? "The given data was invalid."
  }
}

/** A {@link ValidationFailed} with one message on one field. */
export const invalid = (field: string, message: string): ValidationFailed =>
  new ValidationFailed({ errors: { [field]: [message] } })

const PaymentRequiredBase: Schema.Class<
  PaymentRequired,
  Schema.TaggedStruct<"PaymentRequired", { readonly message: Schema.String }>,
  Cause.YieldableError
> = Schema.TaggedError<PaymentRequired>()("PaymentRequired", {
  message: Schema.String
})

/** 402: the plan or the balance does not allow it. */
export class PaymentRequired extends PaymentRequiredBase {}

const TooManyRequestsBase: Schema.Class<
  TooManyRequests,
  Schema.TaggedStruct<"TooManyRequests", { readonly message: Schema.String; readonly retryAfter: Schema.Int }>,
  Cause.YieldableError
> = Schema.TaggedError<TooManyRequests>()("TooManyRequests", {
  message: Schema.String,
  retryAfter: Schema.Int
})

/** 429: try again after `retryAfter` seconds. */
export class TooManyRequests extends TooManyRequestsBase {}

const GoneBase: Schema.Class<
  Gone,
  Schema.TaggedStruct<"Gone", { readonly message: Schema.String; readonly status: Schema.String }>,
  Cause.YieldableError
> = Schema.TaggedError<Gone>()("Gone", {
  message: Schema.String,
  status: Schema.String
})

/** 410: the thing exists but can no longer be used (an OTP verification that is not live; `status` says what it is). */
export class Gone extends GoneBase {}

const InvalidOtpCodeBase: Schema.Class<
  InvalidOtpCode,
  Schema.TaggedStruct<"InvalidOtpCode", { readonly attemptsRemaining: Schema.Int }>,
  Cause.YieldableError
> = Schema.TaggedError<InvalidOtpCode>()("InvalidOtpCode", {
  attemptsRemaining: Schema.Int
})

/** The message of every {@link InvalidOtpCode}, as its 422 answers it. */
export const INVALID_OTP_CODE_MESSAGE = "The code is invalid."

/** 422 of OTP verify: a wrong code, with the attempts the verification has left. */
export class InvalidOtpCode extends InvalidOtpCodeBase {
  /** Always {@link INVALID_OTP_CODE_MESSAGE}. */
  override get message(): string {
    return INVALID_OTP_CODE_MESSAGE
  }
}

const ServiceUnavailableBase: Schema.Class<
  ServiceUnavailable,
  Schema.TaggedStruct<"ServiceUnavailable", { readonly message: Schema.String; readonly retryAfter: Schema.Int }>,
  Cause.YieldableError
> = Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  message: Schema.String,
  retryAfter: Schema.Int
})

/** 503: a dependency (the messaging provider) failed for now; try again after `retryAfter` seconds. */
export class ServiceUnavailable extends ServiceUnavailableBase {}
