/**
 * The HTTP request metrics, recorded by the boundary for every answered request: a counter by
 * method, route and status, and a duration histogram by method and route. Every label takes a
 * fixed set of values, so the number of series stays bounded whatever the callers send: the route
 * is the route's template (`/api/:kind/:id`), never the raw path, and `unmatched` for a request
 * no route serves; the method is one the API answers (or a browser's preflight), else `other`
 * (Node accepts some thirty methods, `PROPFIND` to `MKCALENDAR`, and each would add its series).
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

/** The method label of a method outside {@link METHOD_LABELS}. */
export const OTHER_METHOD = "other"

/** The methods counted under their own name: the API's, `HEAD` (answered by its `GET` routes) and `OPTIONS`. */
export const METHOD_LABELS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** The method label of a request: its method when it is one of {@link METHOD_LABELS}, else `other`. */
const methodLabel = (method: string): string => METHOD_LABELS.has(method) ? method : OTHER_METHOD

/** The template of the route serving the current request, or `unmatched`. */
export const currentRouteTemplate: Effect.Effect<string> = Effect.map(
  Effect.serviceOption(HttpRouter.RouteContext),
  Option.match({ onNone: () => UNMATCHED_ROUTE, onSome: (context) => context.route.path })
)

/**
 * A request series' counter and histogram, made once per method, route and status: a metric from
 * `Metric.withAttributes` computes its registry key (a JSON text of its attributes) on first use,
 * so a fresh one per request computed it every time (≈ 5 µs a request). Bounded like the series:
 * methods are labels, routes are templates.
 */
const series = new Map<string, { readonly requests: Metric.Counter<number>; readonly duration: Metric.Histogram<number> }>()

const seriesOf = (method: string, route: string, status: number) => {
  const key = `${method} ${status} ${route}`
  let found = series.get(key)
  if (found === undefined) {
    found = {
      requests: Metric.withAttributes(httpRequestsTotal, { method, route, status: String(status) }),
      duration: Metric.withAttributes(httpRequestDuration, { method, route })
    }
    series.set(key, found)
  }
  return found
}

/** Counts one answered request and its duration, under its method's label. */
export const recordRequest = (
  method: string,
  route: string,
  status: number,
  durationMillis: number
): Effect.Effect<void> => {
  const { duration, requests } = seriesOf(methodLabel(method), route, status)
  return Effect.andThen(Metric.update(requests, 1), Metric.update(duration, durationMillis / 1000))
}
