/**
 * The "HttpApi floor" of the foundation, records and writes benchmarks (`BASELINE_HTTP=httpapi`):
 * a baseline's own work (for `GET /api/me` the token row, the SHA-256 comparison, the user and the
 * account; for a list the same statement as Wasl's, its rows as JSON; for a write the same
 * transaction as the writes' bare server) served the way the chosen stack serves an endpoint, and
 * nothing of Wasl's own: an `effect/http-api` API of an authenticated `GET /api/<resource>`,
 * `POST /api/<resource>` and `PUT /api/<resource>/<id>` (a write's body decoded as a JSON object,
 * as Wasl's record endpoints decode it) and `GET /health/live`, the token checked by a bearer
 * security middleware (`HttpApiSecurity.bearer`) that provides the caller to the handler, on
 * `HttpRouter` and `NodeHttpServer`, a fiber per request.
 *
 * With `BASELINE_RULES=1` it also does, around every request, the three things every Wasl request
 * must do whatever its endpoint, each the cheapest way the stack allows: an `X-Request-Id`, the
 * access line (Effect's `logInfo` with the request's annotations, written as JSON by Wasl's own
 * batched logger) and the request metrics (Wasl's counter and histogram, Effect's `Metric`).
 * What Wasl costs beyond that server is Wasl's structure, not the stack or the rules.
 */
import { randomUUID } from "node:crypto"
import { Clock, Context, Effect, Layer, Redacted, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { currentRouteTemplate, recordRequest } from "@wasl/http/Metrics"
import { loggingLayer } from "@wasl/app-server"
import { live, type Reply, replyResponse, serveRouterApp, unauthenticated } from "./baseline-server.ts"

/** The token's owner, as the security middleware found it: what the handler reads the user and account by. */
export interface Caller {
  readonly userId: string
  readonly accountId: string
}

/** An authenticated request to the floor: `url` its path and query, `body` its JSON body as decoded (none for a read). */
export interface FloorRequest {
  readonly method: "GET" | "POST" | "PUT"
  readonly url: string
  readonly body: Readonly<Record<string, unknown>> | undefined
}

/** What the floor serves: the caller of a bearer token (or none), and the answers to the caller. */
export interface FloorWork {
  readonly authenticate: (token: string) => Effect.Effect<Caller | undefined>
  /** The answer to an authenticated `GET`, `POST /api/<resource>` or `PUT /api/<resource>/<id>`. */
  readonly answer: (caller: Caller, request: FloorRequest) => Effect.Effect<Reply>
}

class CurrentCaller extends Context.Service<CurrentCaller, Caller>()("bench/CurrentCaller") {}

class Bearer extends HttpApiMiddleware.Service<Bearer, { provides: CurrentCaller; requires: never }>()("bench/Bearer", {
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** A write's body as Wasl's record endpoints decode it: a JSON object of any values. */
const Values = Schema.Record(Schema.String, Schema.Unknown)

const Api = HttpApi.make("floor")
  .add(
    HttpApiGroup.make("api").add(
      HttpApiEndpoint.get("show", "/api/:resource", { params: { resource: Schema.String }, success: Schema.Unknown }),
      HttpApiEndpoint.post("create", "/api/:resource", { params: { resource: Schema.String }, payload: Values, success: Schema.Unknown }),
      HttpApiEndpoint.put("update", "/api/:resource/:id", {
        params: { resource: Schema.String, id: Schema.String },
        payload: Values,
        success: Schema.Unknown
      })
    ).middleware(Bearer)
  )
  .add(HttpApiGroup.make("health").add(HttpApiEndpoint.get("live", "/health/live", { success: Schema.Unknown })))

/** The request id, the access line and the metrics around every request (`BASELINE_RULES=1`). */
const requestFrame = HttpRouter.middleware<{ provides: never }>()(Effect.succeed((app) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = yield* Clock.currentTimeMillis
    const requestId = randomUUID()
    const response = yield* app
    const durationMillis = (yield* Clock.currentTimeMillis) - started
    yield* recordRequest(request.method, yield* currentRouteTemplate, response.status, durationMillis)
    yield* Effect.logInfo("request").pipe(Effect.annotateLogs({
      method: request.method,
      path: request.url,
      status: response.status,
      duration_ms: durationMillis,
      request_id: requestId
    }))
    return HttpServerResponse.setHeader(response, "x-request-id", requestId)
  })
))

/** Serves `work` on `port` until the process is stopped (then `onStop`). */
export const serveHttpApiFloor = (
  work: FloorWork,
  onStop: () => Promise<unknown>,
  port: number,
  withRules: boolean
): void => {
  const bearer = Layer.succeed(Bearer, {
    bearer: (httpEffect, { credential }) =>
      Effect.flatMap(work.authenticate(Redacted.value(credential)), (caller) =>
        caller === undefined
          ? Effect.succeed(replyResponse(unauthenticated))
          : Effect.provideService(httpEffect, CurrentCaller, caller))
  })
  const answer = (method: FloorRequest["method"], body: FloorRequest["body"]) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      return replyResponse(yield* work.answer(yield* CurrentCaller, { method, url: request.url, body }))
    })
  const api = HttpApiBuilder.group(Api, "api", (handlers) =>
    handlers
      .handle("show", () => answer("GET", undefined))
      .handle("create", ({ payload }) => answer("POST", payload))
      .handle("update", ({ payload }) => answer("PUT", payload)))
  const health = HttpApiBuilder.group(Api, "health", (handlers) => handlers.handle("live", () => Effect.succeed(replyResponse(live))))
  const routes = HttpApiBuilder.layer(Api).pipe(Layer.provide([api, health]), Layer.provide(bearer))
  const app = withRules ? routes.pipe(Layer.provide(requestFrame.layer)) : routes
  serveRouterApp(app, onStop, port, loggingLayer({ format: "json", level: "Info" }, false))
}
