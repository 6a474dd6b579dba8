/**
 * 429 and 503 as endpoints declare them: `{ message }` with the seconds in a `Retry-After` header,
 * the same response the boundary renders when they escape undeclared.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { ServiceUnavailable503, TooManyRequests429 } from "./errors.ts"

const headers = { "retry-after": Schema.FiniteFromString }

/**
 * `TooManyRequests429` as an endpoint declares it: answered `{ message }` with the seconds to wait
 * in the `Retry-After` header (decoded back into `retryAfter` by the typed client).
 */
export const TooManyRequests429WithRetryAfter: HttpApiSchema.encodeToWithHeaders<
  typeof TooManyRequests429,
  Schema.Struct<{ readonly message: Schema.String }>,
  { "retry-after": Schema.FiniteFromString }
> = TooManyRequests429.pipe(HttpApiSchema.encodeToWithHeaders({
  body: Schema.Struct({ message: Schema.String }).pipe(HttpApiSchema.status(429)),
  headers
}, {
  decode: ({ body, headers }) => new TooManyRequests429({ message: body.message, retryAfter: headers["retry-after"] }),
  encode: (error) => ({ body: { message: error.message }, headers: { "retry-after": error.retryAfter } })
}))

/**
 * `ServiceUnavailable503` as an endpoint declares it: answered `{ message }` with the seconds to
 * wait in the `Retry-After` header (decoded back into `retryAfter` by the typed client).
 */
export const ServiceUnavailable503WithRetryAfter: HttpApiSchema.encodeToWithHeaders<
  typeof ServiceUnavailable503,
  Schema.Struct<{ readonly message: Schema.String }>,
  { "retry-after": Schema.FiniteFromString }
> = ServiceUnavailable503.pipe(HttpApiSchema.encodeToWithHeaders({
  body: Schema.Struct({ message: Schema.String }).pipe(HttpApiSchema.status(503)),
  headers
}, {
  decode: ({ body, headers }) => new ServiceUnavailable503({ message: body.message, retryAfter: headers["retry-after"] }),
  encode: (error) => ({ body: { message: error.message }, headers: { "retry-after": error.retryAfter } })
}))
