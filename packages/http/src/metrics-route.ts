/**
 * `GET /metrics`: every metric of the process in Prometheus' text format (prometheus-text.ts), with
 * the delivery backlog read from the database at each scrape.
 *
 * Open by default; with a `MetricsToken` it answers only `Authorization: Bearer <token>`, compared
 * in constant time (both sides hashed by `TokenHasher`), and 401 otherwise. A scrape without the
 * token (every scrape when none is set) counts against the caller limit (`RateLimitPolicy.caller`)
 * per client address, before any work, like any other caller: past it, 429 with `Retry-After`. A
 * 401 counts too, so a short token cannot be guessed at speed. A scrape with the token is not
 * counted: it is the operator's own.
 */
import { Context, Effect, Layer, Metric, Redacted } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { RateLimiter, RateLimitPolicy, TokenHasher } from "@wasl/core/Auth"
import { DeliveryBacklog } from "@wasl/core/Deliveries"
import { UNAUTHENTICATED_MESSAGE } from "@wasl/core/Errors"
import { httpErrorResponse } from "./errors.ts"
import { prometheusText } from "./prometheus-text.ts"
import { clientAddress, limitRequest } from "./rate-limit.ts"
import { forwardedFrom, TrustedProxies } from "./trusted-proxies.ts"

/** Where the metrics are served. */
export const METRICS_PATH = "/metrics"

/**
 * The bearer token `GET /metrics` asks for (`WASL_METRICS_TOKEN`); none by default, which leaves
 * the metrics open to whoever reaches the port, within the caller limit per client address.
 */
export const MetricsToken: Context.Reference<Redacted.Redacted<string> | undefined> = Context.Reference<
  Redacted.Redacted<string> | undefined
>("@wasl/http/MetricsToken", { defaultValue: () => undefined })

/** Outbox events not yet fanned out. */
export const outboxEventsGauge: Metric.Gauge<number> = Metric.gauge("wasl_outbox_events", {
  description: "Outbox events not yet fanned out to webhook deliveries."
})

/** Deliveries due now. */
export const deliveriesDueGauge: Metric.Gauge<number> = Metric.gauge("wasl_deliveries_due", {
  description: "Pending webhook deliveries whose next attempt is due."
})

/** How long the longest-waiting due delivery has been due. */
export const oldestDueGauge: Metric.Gauge<number> = Metric.gauge("wasl_deliveries_oldest_due_seconds", {
  description: "Seconds since the longest-waiting due webhook delivery came due; 0 when none is due."
})

const BEARER = /^Bearer\s+(.+)$/i

const unauthenticated = () =>
  HttpServerResponse.jsonUnsafe({ message: UNAUTHENTICATED_MESSAGE }, { status: 401, headers: { "www-authenticate": "Bearer" } })

/**
 * The metrics route for a host's `HttpRouter`: `serveWasl` includes it; a host mounting
 * `WaslRoutes` beside its own may add it, or export the metrics its own way. Behind the proxies
 * of `TrustedProxies`, a scrape counts under the client address they forward.
 */
export const MetricsRoute: Layer.Layer<
  never,
  never,
  HttpRouter.HttpRouter | TokenHasher | DeliveryBacklog | RateLimiter
> = Layer.unwrap(Effect.gen(function*() {
  const hasher = yield* TokenHasher
  const backlog = yield* DeliveryBacklog
  const limiter = yield* RateLimiter
  const { caller } = yield* RateLimitPolicy
  const forwarded = forwardedFrom(yield* TrustedProxies)
  const token = yield* MetricsToken
  const expectedHash = token === undefined ? undefined : yield* hasher.hash(Redacted.value(token))
  const hasToken = (request: HttpServerRequest.HttpServerRequest) => {
    if (expectedHash === undefined) return Effect.succeed(false)
    const presented = BEARER.exec(request.headers["authorization"] ?? "")?.[1]
    return presented === undefined ? Effect.succeed(false) : hasher.matches(presented.trim(), expectedHash)
  }
  const scrape = Effect.gen(function*() {
    const now = yield* backlog.snapshot
    yield* Metric.update(outboxEventsGauge, now.outboxEvents)
    yield* Metric.update(deliveriesDueGauge, now.deliveriesDue)
    yield* Metric.update(oldestDueGauge, now.oldestDueSeconds)
    return HttpServerResponse.text(yield* prometheusText, {
      contentType: "text/plain; version=0.0.4; charset=utf-8",
      headers: { "cache-control": "no-store" }
    })
  })
  /** The scrape of a caller without the token: counted, then answered (or refused). */
  const limited = (request: HttpServerRequest.HttpServerRequest) =>
    limitRequest([[`metrics-address:${clientAddress(request)}`, caller]]).pipe(
      Effect.provideService(RateLimiter, limiter),
      Effect.matchEffect({
        onFailure: (tooMany) => Effect.succeed(httpErrorResponse(tooMany)!),
        onSuccess: () => expectedHash === undefined ? scrape : Effect.succeed(unauthenticated())
      })
    )
  const handler = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    return yield* (yield* hasToken(request)) ? scrape : limited(request)
  })
  return HttpRouter.add("GET", METRICS_PATH, forwarded(handler))
}))
