/**
 * The outermost middleware: request ids and the access log line, body limits
 * and content types, and the rendering of every failure that escapes a
 * handler into Wasl's JSON error bodies — never a stack trace.
 */
import { ByteSize, Cause, Clock, Effect, type Layer, Option, Result, type Types } from "effect"
import { SecureRandom } from "effect/crypto"
import { Headers, HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { exportedSpan } from "@wasl/core/Events"
import { MAX_IMPORT_BYTES } from "@wasl/core/Imports"
import { isDatabaseUnavailable } from "./database-unavailable.ts"
import { httpErrorResponse, responses } from "./errors.ts"
import type { RouteTable } from "./route-table.ts"
import { forwardedFrom, TrustedProxies } from "./trusted-proxies.ts"
import { unstorableJsonErrors } from "./storable-text.ts"
import { tooDeepJsonErrors } from "./body-nesting.ts"
import { type FieldErrors, isMalformedJson, toFieldErrors } from "./validation-errors.ts"
import { currentRouteTemplate, recordRequest } from "./http-metrics.ts"

/** The largest JSON body accepted, in bytes (1 MiB); a larger one is answered 413. */
export const JSON_BODY_LIMIT: number = 1024 * 1024
/** The largest multipart body accepted, in bytes: 10 MiB for the header file, with room for the form around it. */
export const MULTIPART_BODY_LIMIT: number = 10 * 1024 * 1024 + 64 * 1024
/** The largest CSV import upload accepted, in bytes: the file's limit, with room for the form around it. */
export const IMPORT_BODY_LIMIT: number = MAX_IMPORT_BYTES + 64 * 1024
/**
 * The endpoints that take multipart/form-data, each with its body limit: a template send with a
 * header file, and a CSV import (streamed to the use-case, which counts the file's bytes itself).
 */
const MULTIPART_PATHS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^\/api\/broadcasts\/[^/]+\/send\/?$/, MULTIPART_BODY_LIMIT],
  [/^\/api\/(contacts|companies|deals|tickets|invoices|products)\/imports\/?$/, IMPORT_BODY_LIMIT]
]

/**
 * The endpoints whose body is signed by its sender and checked as the bytes received (Meta's
 * callbacks): nothing here reads it before the endpoint has checked the signature, so the JSON
 * refusals below (nesting, unstorable text) are not theirs. The JSON body limit applies.
 */
const SIGNED_BODY_PATHS: ReadonlyArray<RegExp> = [/^\/api\/whatsapp\/webhook\/?$/]

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

const hasBody = (request: HttpServerRequest.HttpServerRequest) =>
  BODY_METHODS.has(request.method) &&
  ((request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0") ||
    request.headers["transfer-encoding"] !== undefined)

const isJson = (contentType: string | undefined) =>
  contentType === undefined || /^application\/(.+\+)?json\s*(;|$)/i.test(contentType)

/**
 * The request as the endpoints read it: a JSON body of a `+json` type (`application/vnd.api+json`)
 * relabelled `application/json`, the one JSON type their payload decoders know. Done before the
 * body is read: a modified request does not share the original's read body.
 */
const asJson = (request: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest => {
  const contentType = request.headers["content-type"]
  return contentType !== undefined && isJson(contentType) && !/^application\/json\s*(;|$)/i.test(contentType)
    ? request.modify({ headers: Headers.set(request.headers, "content-type", "application/json") })
    : request
}

/** A 415 from the framework (a payload it cannot decode) is answered in Wasl's error body. */
const withOwn415 = (response: HttpServerResponse.HttpServerResponse) =>
  response.status === 415 ? responses.unsupportedMediaType() : response

/** The body limit of a multipart request to an endpoint that takes one; undefined for any other request. */
const multipartLimit = (request: HttpServerRequest.HttpServerRequest): number | undefined => {
  if (!/^multipart\/form-data\s*;/i.test(request.headers["content-type"] ?? "")) return undefined
  const path = pathOf(request.url)
  return MULTIPART_PATHS.find(([pattern]) => pattern.test(path))?.[1]
}

/**
 * Input refused up front, as a 422, before a route decodes it. PostgreSQL text cannot hold U+0000
 * (nor a surrogate without its pair), so a NUL anywhere in the query is refused on `query`, before
 * it could fail at the database; in a JSON body, a part nested too deep for the decoders
 * (body-nesting.ts), then a string that cannot be stored (storable-text.ts), on their field.
 */
const NUL_MESSAGE = "The request must not contain NUL characters."

const refusedText = (request: HttpServerRequest.HttpServerRequest, withBody: boolean) => {
  if (/%00/.test(request.url) || request.url.includes("\u0000")) {
    return Effect.succeed<FieldErrors | undefined>({ query: [NUL_MESSAGE] })
  }
  if (!withBody) return Effect.succeed(undefined)
  // The body is read once and cached; a failure to read it (too large) is left to the route to report.
  return request.text.pipe(
    Effect.map((text) => tooDeepJsonErrors(text) ?? unstorableJsonErrors(text)),
    Effect.orElseSucceed(() => undefined)
  )
}

/** The path of a request's URL, without its query. */
export const pathOf = (url: string): string => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

const isBodyTooLarge = (u: unknown): boolean => {
  const reason = (u as { reason?: { _tag?: string; reason?: string } } | undefined)?.reason
  return reason?._tag === "RequestParseError" && reason.reason === "BodyTooLarge"
}

/** The 404 or 405 (with its Allow header) of a request no route serves. */
const notFoundResponse = (routes: RouteTable, request: HttpServerRequest.HttpServerRequest) => {
  const allowed = routes.methodsFor(pathOf(request.url))
  return allowed.length === 0 ? responses.notFound() : responses.methodNotAllowed(allowed)
}

const isRouteNotFound = (error: unknown): boolean =>
  (error as { reason?: { _tag?: string } } | undefined)?.reason?._tag === "RouteNotFound"

const renderFailure = (
  routes: RouteTable,
  request: HttpServerRequest.HttpServerRequest,
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, SecureRandom.SecureRandom> =>
  Effect.gen(function*() {
    const failure = Cause.findErrorOption(cause)
    const defect = Cause.findDefect(cause)
    const error = Option.isSome(failure) ? failure.value : Result.isSuccess(defect) ? defect.success : undefined
    if (error !== undefined) {
      if (isRouteNotFound(error)) return notFoundResponse(routes, request)
      if (isBodyTooLarge(error) || HttpApiError.HttpApiPayloadTooLarge.is(error)) return responses.payloadTooLarge()
      if (HttpApiError.HttpApiSchemaError.is(error) && error.kind !== "Body" && error.kind !== "ResponseHeaders") {
        const issue = error.cause.issue
        if (error.kind === "Params") {
          // A parameter outside its set (`POST /api/me` reaching `POST /:kind`): no such route for this method.
          const allowed = routes.methodsFor(pathOf(request.url))
          return allowed.length > 0 && !allowed.includes(request.method)
            ? responses.methodNotAllowed(allowed)
            : responses.notFound()
        }
        if (isMalformedJson(issue)) return responses.malformedJson()
        return responses.validation(toFieldErrors(issue, error.kind === "Payload" ? "body" : "query"))
      }
      const declared = Option.isSome(failure) ? httpErrorResponse(error) : undefined
      if (declared !== undefined) return declared
    }
    if (isDatabaseUnavailable(cause)) {
      yield* Effect.logWarning("request failed: the database cannot be reached", cause)
      return responses.databaseUnavailable()
    }
    // Traced, the id of the request's trace, where the failure is recorded; else a fresh one for the log line.
    const span = yield* Effect.withFiberSucceed(exportedSpan)
    const traceId = span?.traceId ?? (yield* (yield* SecureRandom.SecureRandom).uuidV4())
    yield* Effect.logError("request failed", cause).pipe(Effect.annotateLogs({ trace_id: traceId }))
    return responses.serverError(traceId)
  })

/** The request's id: the caller's `X-Request-Id` when it is a sane token, else a fresh uuid. */
const requestIdOf = (request: HttpServerRequest.HttpServerRequest, random: SecureRandom.SecureRandom["Service"]) => {
  const incoming = request.headers["x-request-id"]
  return incoming !== undefined && REQUEST_ID.test(incoming) ? Effect.succeed(incoming) : random.uuidV4()
}

/** One access log line and the request metrics for the answered request, and its `X-Request-Id` header. */
const logged = (
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  started: number,
  response: HttpServerResponse.HttpServerResponse
) =>
  Effect.gen(function*() {
    const durationMillis = (yield* Clock.currentTimeMillis) - started
    yield* recordRequest(request.method, yield* currentRouteTemplate, response.status, durationMillis)
    yield* Effect.logInfo("request").pipe(Effect.annotateLogs({
      method: request.method,
      path: pathOf(request.url),
      status: response.status,
      duration_ms: durationMillis,
      request_id: requestId
    }))
    return HttpServerResponse.setHeader(response, "x-request-id", requestId)
  })

/**
 * Wasl's boundary around each of its routes: request ids and the access log line, body limits and
 * content types, and the rendering of every failure that escapes a handler; behind the proxies of
 * `TrustedProxies`, the client address, host and scheme they forward. Route-scoped, so a
 * host that mounts Wasl's routes beside its own keeps its own error handling for those.
 */
export const makeBoundary = (routes: RouteTable): HttpRouter.Middleware<{
  provides: never
  handles: unknown
  error: never
  requires: never
  layerError: never
  layerRequires: SecureRandom.SecureRandom
}> =>
  HttpRouter.middleware<{ handles: unknown }>()(
    Effect.gen(function*() {
      const random = yield* SecureRandom.SecureRandom
      const render = (request: HttpServerRequest.HttpServerRequest, cause: Cause.Cause<unknown>) =>
        Effect.provideService(renderFailure(routes, request, cause), SecureRandom.SecureRandom, random)
      const forwarded = forwardedFrom(yield* TrustedProxies)
      return (app): Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        // Every failure is rendered here; the router's typing wants the unhandled marker kept.
        Types.unhandled,
        HttpServerRequest.HttpServerRequest
      > =>
        Effect.gen(function*() {
          const request = asJson(yield* HttpServerRequest.HttpServerRequest)
          const started = yield* Clock.currentTimeMillis
          const requestId = yield* requestIdOf(request, random)
          const multipartBodyLimit = multipartLimit(request)
          const multipart = multipartBodyLimit !== undefined
          const limit = multipartBodyLimit ?? JSON_BODY_LIMIT
          const signed = SIGNED_BODY_PATHS.some((pattern) => pattern.test(pathOf(request.url)))
          const guarded = hasBody(request) && !multipart && !isJson(request.headers["content-type"])
            ? Effect.succeed(responses.unsupportedMediaType())
            : Number(request.headers["content-length"] ?? 0) > limit
            ? Effect.succeed(responses.payloadTooLarge())
            : Effect.flatMap(refusedText(request, hasBody(request) && !multipart && !signed), (errors) =>
              errors === undefined
                ? Effect.map(Effect.provideService(app, HttpServerRequest.HttpServerRequest, request), withOwn415)
                : Effect.succeed(responses.validation(errors))).pipe(
                Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit))
              )
          const response = yield* guarded.pipe(
            Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.interrupt : render(request, cause))
          )
          return yield* logged(request, requestId, started, response)
        }).pipe(forwarded)
    })
  )

/**
 * For when Wasl is the whole application: a request that no route serves answers 404
 * `{"message":"Not found."}`, or 405 with an `Allow` header when the path exists with other
 * methods, logged like the rest. Global, so it sees requests before any route matches.
 */
export const makeNotFound = (
  routes: RouteTable
): Layer.Layer<
  HttpRouter.Request<"Error", unknown> | HttpRouter.Request<"GlobalError", unknown>,
  never,
  HttpRouter.HttpRouter | SecureRandom.SecureRandom
> =>
  HttpRouter.middleware<{ handles: unknown }>()(
    Effect.gen(function*() {
      const random = yield* SecureRandom.SecureRandom
      return (app): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
        Effect.catchCause(app, (cause) => {
          const failure = Cause.findErrorOption(cause)
          // Anything else belongs to the routes' own boundary (or the host's): passed on as it is.
          if (Option.isNone(failure) || !isRouteNotFound(failure.value)) {
            return Effect.failCause(cause as Cause.Cause<Types.unhandled>)
          }
          return Effect.gen(function*() {
            const request = yield* HttpServerRequest.HttpServerRequest
            const started = yield* Clock.currentTimeMillis
            return yield* logged(request, yield* requestIdOf(request, random), started, notFoundResponse(routes, request))
          })
        })
    }),
    { global: true }
  )
