/**
 * The error bodies of decisions §1, as schemas (so OpenAPI shows them) and
 * respondable values (so they render the same wherever they surface). Core's
 * domain errors map to them in one place: `fromDomain`.
 */
import { Effect, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import type { Forbidden, NotFound, PaymentRequired, TooManyRequests, Unauthenticated, ValidationFailed } from "@wasl/core"
import type { Gone, InvalidOtpCode, ServiceUnavailable } from "@wasl/core"

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers })

const MessageBody = { message: Schema.String }
const FieldErrors = Schema.Record(Schema.String, Schema.Array(Schema.String))

export class Unauthenticated401 extends Schema.Error<Unauthenticated401>("Unauthenticated401")(MessageBody, {
  httpApiStatus: 401,
  description: "No or bad credentials."
}) {}

export class Forbidden403 extends Schema.Error<Forbidden403>("Forbidden403")(MessageBody, {
  httpApiStatus: 403,
  description: "Authenticated but not allowed."
}) {}

export class NotFound404 extends Schema.Error<NotFound404>("NotFound404")(MessageBody, {
  httpApiStatus: 404,
  description: "Unknown, or another account's."
}) {}

export class PaymentRequired402 extends Schema.Error<PaymentRequired402>("PaymentRequired402")(MessageBody, {
  httpApiStatus: 402,
  description: "The plan or the balance does not allow it."
}) {}

export class Validation422 extends Schema.Error<Validation422>("Validation422")({
  message: Schema.String,
  errors: FieldErrors
}, {
  httpApiStatus: 422,
  description: "Validation failed; keys in dot notation."
}) {}

/**
 * Rendered by the boundary (`httpErrorResponse`) with a `Retry-After` header; an endpoint that
 * declares it must encode the header too, not `retryAfter` in the body.
 */
export class TooManyRequests429 extends Schema.Error<TooManyRequests429>("TooManyRequests429")({
  message: Schema.String,
  retryAfter: Schema.Int
}, {
  httpApiStatus: 429,
  description: "Slow down; see the Retry-After header."
}) {}

/** An OTP verification that is not live any more (decisions §7). */
export class Gone410 extends Schema.Error<Gone410>("Gone410")({ message: Schema.String, status: Schema.String }, {
  httpApiStatus: 410,
  description: "The verification is no longer live; `status` says what it became."
}) {}

/** A wrong OTP code (decisions §7): the 422 body plus the attempts left. */
export class InvalidCode422 extends Schema.Error<InvalidCode422>("InvalidCode422")({
  message: Schema.String,
  errors: FieldErrors,
  attempts_remaining: Schema.Int
}, {
  httpApiStatus: 422,
  description: "The code is invalid; attempts_remaining says how many tries are left."
}) {}

/** Rendered like TooManyRequests429: `{ message }` with a `Retry-After` header. */
export class ServiceUnavailable503 extends Schema.Error<ServiceUnavailable503>("ServiceUnavailable503")({
  message: Schema.String,
  retryAfter: Schema.Int
}, {
  httpApiStatus: 503,
  description: "The messaging provider cannot take the message now; see the Retry-After header."
}) {}

export const INVALID_CODE = "The code is invalid."

export const UNAUTHENTICATED = "Unauthenticated."
export const NOT_FOUND = "Not found."

export type DomainError = Unauthenticated | Forbidden | NotFound | ValidationFailed | PaymentRequired | TooManyRequests
  | Gone | InvalidOtpCode | ServiceUnavailable
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
      return new Unauthenticated401({ message: UNAUTHENTICATED })
    case "Forbidden":
      return new Forbidden403({ message: error.message })
    case "NotFound":
      return new NotFound404({ message: NOT_FOUND })
    case "ValidationFailed":
      return new Validation422({ message: error.firstMessage, errors: error.errors })
    case "PaymentRequired":
      return new PaymentRequired402({ message: error.message })
    case "TooManyRequests":
      return new TooManyRequests429({ message: error.message, retryAfter: error.retryAfter })
    case "Gone":
      return new Gone410({ message: error.message, status: error.status })
    case "InvalidOtpCode":
      return new InvalidCode422({
        message: INVALID_CODE,
        errors: { code: [INVALID_CODE] },
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

/** Framework-level answers (decisions §1). */
export const responses = {
  malformedJson: () => json(400, { message: "Malformed JSON body." }),
  notFound: () => json(404, { message: NOT_FOUND }),
  methodNotAllowed: (allow: ReadonlyArray<string>) =>
    json(405, { message: "The method is not supported for this route." }, { allow: allow.join(", ") }),
  payloadTooLarge: () => json(413, { message: "The request body is too large." }),
  unsupportedMediaType: () => json(415, { message: "The content type is not supported." }),
  serverError: (traceId: string) => json(500, { message: "Server Error." }, { "x-trace-id": traceId }),
  validation: (errors: Record<string, ReadonlyArray<string>>) =>
    json(422, { message: Object.values(errors)[0]?.[0] ?? "The given data was invalid.", errors })
}
