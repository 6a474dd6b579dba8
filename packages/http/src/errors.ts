/**
 * The error bodies Wasl answers with (Laravel's shapes), as schemas (so OpenAPI shows them) and
 * respondable values (so they render the same wherever they surface). Core's
 * domain errors map to them in one place: `fromDomain`.
 */
import { type Cause, Effect, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import type {
  Forbidden,
  NotFound,
  PaymentRequired,
  TooManyRequests,
  Unauthenticated,
  ValidationFailed
} from "@wasl/core/Errors"
import type { Gone, InvalidOtpCode, ServiceUnavailable } from "@wasl/core/Errors"
import { INVALID_OTP_CODE_MESSAGE, NOT_FOUND_MESSAGE, UNAUTHENTICATED_MESSAGE } from "@wasl/core/Errors"

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers })

const MessageBody = { message: Schema.String }
const FieldErrors = Schema.Record(Schema.String, Schema.Array(Schema.String))

const Unauthenticated401Base: Schema.Class<Unauthenticated401, Schema.Struct<{ message: Schema.String }>, Cause.YieldableError> =
  Schema.Error<Unauthenticated401>("Unauthenticated401")(MessageBody, {
    httpApiStatus: 401,
    description: "No or bad credentials."
  })
/**
 * 401 `{ message }`: the request carries no credentials, or bad ones (an unknown, revoked or
 * expired token or session). The message is `Unauthenticated.`.
 */
export class Unauthenticated401 extends Unauthenticated401Base {}

const Forbidden403Base: Schema.Class<Forbidden403, Schema.Struct<{ message: Schema.String }>, Cause.YieldableError> =
  Schema.Error<Forbidden403>("Forbidden403")(MessageBody, {
    httpApiStatus: 403,
    description: "Authenticated but not allowed."
  })
/**
 * 403 `{ message }`: the caller is authenticated but not allowed: a missing permission or token
 * ability, or a session request that changes state without `X-Requested-With: XMLHttpRequest`.
 */
export class Forbidden403 extends Forbidden403Base {}

const NotFound404Base: Schema.Class<NotFound404, Schema.Struct<{ message: Schema.String }>, Cause.YieldableError> =
  Schema.Error<NotFound404>("NotFound404")(MessageBody, {
    httpApiStatus: 404,
    description: "Unknown, or another account's."
  })
/**
 * 404 `{ message }`: no such resource, or one of another account (the two are not told apart).
 * The message is `Not found.`.
 */
export class NotFound404 extends NotFound404Base {}

const PaymentRequired402Base: Schema.Class<PaymentRequired402, Schema.Struct<{ message: Schema.String }>, Cause.YieldableError> =
  Schema.Error<PaymentRequired402>("PaymentRequired402")(MessageBody, {
    httpApiStatus: 402,
    description: "The plan or the balance does not allow it."
  })
/** 402 `{ message }`: the account's plan does not allow it, or its OTP credit balance is too low. */
export class PaymentRequired402 extends PaymentRequired402Base {}

const Validation422Base: Schema.Class<
  Validation422,
  Schema.Struct<{ readonly message: Schema.String; readonly errors: Schema.$Record<Schema.String, Schema.$Array<Schema.String>> }>,
  Cause.YieldableError
> = Schema.Error<Validation422>("Validation422")({
  message: Schema.String,
  errors: FieldErrors
}, {
  httpApiStatus: 422,
  description: "Validation failed; keys in dot notation."
})
/**
 * 422 `{ message, errors }`: the input is invalid. `errors` maps each field, in dot notation
 * (`name.en`, `events.2`), to its messages; `message` is the first of them.
 */
export class Validation422 extends Validation422Base {}

const TooManyRequests429Base: Schema.Class<
  TooManyRequests429,
  Schema.Struct<{ readonly message: Schema.String; readonly retryAfter: Schema.Int }>,
  Cause.YieldableError
> = Schema.Error<TooManyRequests429>("TooManyRequests429")({
  message: Schema.String,
  retryAfter: Schema.Int
}, {
  httpApiStatus: 429,
  description: "Slow down; see the Retry-After header."
})
/**
 * 429: too many requests (a rate limit, or OTP sends to one number). Answered as `{ message }` with
 * the seconds to wait in a `Retry-After` header, which `retryAfter` holds.
 *
 * Rendered by the boundary (`httpErrorResponse`) with a `Retry-After` header; an endpoint that
 * declares it must encode the header too, not `retryAfter` in the body.
 */
export class TooManyRequests429 extends TooManyRequests429Base {}

const Gone410Base: Schema.Class<
  Gone410,
  Schema.Struct<{ readonly message: Schema.String; readonly status: Schema.String }>,
  Cause.YieldableError
> = Schema.Error<Gone410>("Gone410")({ message: Schema.String, status: Schema.String }, {
  httpApiStatus: 410,
  description: "The verification is no longer live; `status` says what it became."
})
/**
 * 410 `{ message, status }`: an OTP verification that is not live any more (verified, expired or
 * out of attempts); `status` says which.
 */
export class Gone410 extends Gone410Base {}

const InvalidCode422Base: Schema.Class<
  InvalidCode422,
  Schema.Struct<{
    readonly message: Schema.String
    readonly errors: Schema.$Record<Schema.String, Schema.$Array<Schema.String>>
    readonly attempts_remaining: Schema.Int
  }>,
  Cause.YieldableError
> = Schema.Error<InvalidCode422>("InvalidCode422")({
  message: Schema.String,
  errors: FieldErrors,
  attempts_remaining: Schema.Int
}, {
  httpApiStatus: 422,
  description: "The code is invalid; attempts_remaining says how many tries are left."
})
/** 422 for a wrong OTP code: the validation body (`message`, `errors.code`) plus `attempts_remaining`. */
export class InvalidCode422 extends InvalidCode422Base {}

const ServiceUnavailable503Base: Schema.Class<
  ServiceUnavailable503,
  Schema.Struct<{ readonly message: Schema.String; readonly retryAfter: Schema.Int }>,
  Cause.YieldableError
> = Schema.Error<ServiceUnavailable503>("ServiceUnavailable503")({
  message: Schema.String,
  retryAfter: Schema.Int
}, {
  httpApiStatus: 503,
  description: "The messaging provider cannot take the message now; see the Retry-After header."
})
/**
 * 503: the messaging provider cannot take the message now. Rendered like `TooManyRequests429`:
 * `{ message }` with the seconds to wait in a `Retry-After` header, which `retryAfter` holds.
 */
export class ServiceUnavailable503 extends ServiceUnavailable503Base {}

/**
 * The errors nearly every authenticated endpoint declares: 401 (no or bad credentials), 403 (not
 * allowed), 404 (no such resource in the account) and 422 (invalid input).
 */
export type CommonErrors = typeof Unauthenticated401 | typeof Forbidden403 | typeof NotFound404 | typeof Validation422

/** The failures of core's use-cases that `fromDomain` turns into HTTP errors. */
export type DomainError = Unauthenticated | Forbidden | NotFound | ValidationFailed | PaymentRequired | TooManyRequests
  | Gone | InvalidOtpCode | ServiceUnavailable
/** Every HTTP error an endpoint of Wasl can declare. */
export type HttpError =
  | Unauthenticated401
  | Forbidden403
  | NotFound404
  | Validation422
  | PaymentRequired402
  | TooManyRequests429
  | Gone410
  | InvalidCode422
  | ServiceUnavailable503

/** The one mapping from core's domain failures to HTTP errors. */
export const fromDomain = (error: DomainError): HttpError => {
  switch (error._tag) {
    case "Unauthenticated":
      return new Unauthenticated401({ message: UNAUTHENTICATED_MESSAGE })
    case "Forbidden":
      return new Forbidden403({ message: error.message })
    case "NotFound":
      return new NotFound404({ message: NOT_FOUND_MESSAGE })
    case "ValidationFailed":
      return new Validation422({ message: error.message, errors: error.errors })
    case "PaymentRequired":
      return new PaymentRequired402({ message: error.message })
    case "TooManyRequests":
      return new TooManyRequests429({ message: error.message, retryAfter: error.retryAfter })
    case "Gone":
      return new Gone410({ message: error.message, status: error.status })
    case "InvalidOtpCode":
      return new InvalidCode422({
        message: INVALID_OTP_CODE_MESSAGE,
        errors: { code: [INVALID_OTP_CODE_MESSAGE] },
        attempts_remaining: error.attemptsRemaining
      })
    case "ServiceUnavailable":
      return new ServiceUnavailable503({ message: error.message, retryAfter: error.retryAfter })
  }
}

/** The HTTP error each domain error becomes, at the type level. */
export type ToHttp<E> = E extends Unauthenticated ? Unauthenticated401
  : E extends Forbidden ? Forbidden403
  : E extends NotFound ? NotFound404
  : E extends ValidationFailed ? Validation422
  : E extends PaymentRequired ? PaymentRequired402
  : E extends TooManyRequests ? TooManyRequests429
  : E extends Gone ? Gone410
  : E extends InvalidOtpCode ? InvalidCode422
  : E extends ServiceUnavailable ? ServiceUnavailable503
  : never

/** Run a use-case in a handler: domain failures become HTTP errors. */
export const domain = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, ToHttp<E>, R> =>
  Effect.mapError(effect, (e) => fromDomain(e) as ToHttp<E>)

const STATUS: ReadonlyArray<readonly [new(...args: any) => HttpError, number]> = [
  [Unauthenticated401, 401],
  [PaymentRequired402, 402],
  [Forbidden403, 403],
  [NotFound404, 404],
  [Validation422, 422],
  [TooManyRequests429, 429],
  [Gone410, 410],
  [InvalidCode422, 422],
  [ServiceUnavailable503, 503]
]

/** One of ours, when it escapes an endpoint that did not declare it. */
export const httpErrorResponse = (error: unknown): HttpServerResponse.HttpServerResponse | undefined => {
  const status = STATUS.find(([cls]) => error instanceof cls)?.[1]
  if (status === undefined) return undefined
  if (error instanceof TooManyRequests429 || error instanceof ServiceUnavailable503) {
    return json(status, { message: error.message }, { "retry-after": String(error.retryAfter) })
  }
  if (error instanceof Gone410) return json(status, { message: error.message, status: error.status })
  if (error instanceof InvalidCode422) {
    return json(status, { message: error.message, errors: error.errors, attempts_remaining: error.attempts_remaining })
  }
  const { message, errors } = error as { message: string; errors?: unknown }
  return json(status, errors === undefined ? { message } : { message, errors })
}

/** The seconds a client is told to wait when the database cannot be reached. */
const DATABASE_RETRY_AFTER_SECONDS = 2

/**
 * The answers Wasl gives outside any endpoint's own errors, in Wasl's error body: a malformed JSON
 * body, an unknown path or method, a body too large or of the wrong type, a defect (500 with a
 * trace id, never a stack trace), a database that cannot be reached for now (503), and input
 * refused before it reaches an endpoint.
 */
export const responses: {
  /** 400 `{ message }`: the body is not JSON. */
  readonly malformedJson: () => HttpServerResponse.HttpServerResponse
  /** 404 `{ message: "Not found." }`. */
  readonly notFound: () => HttpServerResponse.HttpServerResponse
  /** 405 `{ message }` with an `Allow` header listing the methods the path has. */
  readonly methodNotAllowed: (allow: ReadonlyArray<string>) => HttpServerResponse.HttpServerResponse
  /** 413 `{ message }`: the body is over the limit. */
  readonly payloadTooLarge: () => HttpServerResponse.HttpServerResponse
  /** 415 `{ message }`: the body is neither JSON nor (where accepted) multipart/form-data. */
  readonly unsupportedMediaType: () => HttpServerResponse.HttpServerResponse
  /** 500 `{ message: "Server Error." }` with the logged failure's id in `X-Trace-Id`. */
  readonly serverError: (traceId: string) => HttpServerResponse.HttpServerResponse
  /** 503 `{ message }` with `Retry-After`: the database cannot be reached for now (database-unavailable.ts). */
  readonly databaseUnavailable: () => HttpServerResponse.HttpServerResponse
  /** 422 `{ message, errors }`, `message` being the first field message. */
  readonly validation: (errors: Record<string, ReadonlyArray<string>>) => HttpServerResponse.HttpServerResponse
} = {
  malformedJson: () => json(400, { message: "Malformed JSON body." }),
  notFound: () => json(404, { message: NOT_FOUND_MESSAGE }),
  methodNotAllowed: (allow: ReadonlyArray<string>) =>
    json(405, { message: "The method is not supported for this route." }, { allow: allow.join(", ") }),
  payloadTooLarge: () => json(413, { message: "The request body is too large." }),
  unsupportedMediaType: () => json(415, { message: "The content type is not supported." }),
  serverError: (traceId: string) => json(500, { message: "Server Error." }, { "x-trace-id": traceId }),
  databaseUnavailable: () =>
    json(503, { message: "The service is unavailable for a moment. Retry shortly." }, { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) }),
  validation: (errors: Record<string, ReadonlyArray<string>>) =>
    json(422, { message: Object.values(errors)[0]?.[0] ?? "The given data was invalid.", errors })
}
