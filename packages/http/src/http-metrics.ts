/**
 * The HTTP request metrics, recorded by the boundary for every answered request: a counter by
 * method, route and status, and a duration histogram by method and route. The route is the
 * route's template (`/api/:kind/:id`), never the raw path, so the number of series stays bounded
 * whatever the callers send; a request no route serves counts under `unmatched`.
 */
import { Effect, Metric, Option } from "effect"
import { HttpRouter } from "effect/http"

/** Requests answered, by `method`, `route` (template) and `status`. */
export const httpRequestsTotal: Metric.Counter<number> = Metric.counter("wasl_http_requests_total", {
  description: "HTTP requests answered, by method, route template and status.",
  incremental: true
})

/** Request durations in seconds, by `method` and `route` (template). */
export const httpRequestDuration: Metric.Histogram<number> = Metric.histogram("wasl_http_request_duration_seconds", {
  description: "Time to answer an HTTP request, in seconds, by method and route template.",
  // 5 ms to 10 s: a record read is a few milliseconds, a bulk write or a slow database seconds.
  boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

/** The route label of a request no route serves (404, 405). */
export const UNMATCHED_ROUTE = "unmatched"

/** The template of the route serving the current request, or `unmatched`. */
export const currentRouteTemplate: Effect.Effect<string> = Effect.map(
  Effect.serviceOption(HttpRouter.RouteContext),
  Option.match({ onNone: () => UNMATCHED_ROUTE, onSome: (context) => context.route.path })
)

/** Counts one answered request and its duration. */
export const recordRequest = (
  method: string,
  route: string,
  status: number,
  durationMillis: number
): Effect.Effect<void> =>
  Effect.andThen(
    Metric.update(Metric.withAttributes(httpRequestsTotal, { method, route, status: String(status) }), 1),
    Metric.update(Metric.withAttributes(httpRequestDuration, { method, route }), durationMillis / 1000)
  )
