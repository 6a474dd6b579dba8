/**
 * Wasl's HTTP API as a library: the contract (`WaslApi`, its groups, endpoints and schemas), its
 * handlers as layers to serve alone (`serveWasl`, `WaslApp`) or to mount beside a host's own
 * routes (`WaslRoutes`), the error bodies, and the OpenAPI document at `/api/openapi.json`.
 *
 * As namespaces (each also an entry point, `@wasl/http/Routes`): `Endpoints` (`WaslApi` and one
 * `...Group` per resource, with their request and answer schemas, `Pagination`, `DeletedAnswer`,
 * the paginator body `paginationBody`, the messages of answers); `Routes` (serving: `serveWasl`,
 * `WaslApp`, `WaslRoutes`, `waslRouterConfig`, `ServerClosing`, `TrustedProxies`; authentication
 * and limits: `Authentication`, the rate-limit and idempotency middleware and their policies;
 * `WaslHttpServices`, the core services the handlers need); `Errors` (the error bodies and their
 * statuses); `Metrics` (`MetricsRoute`, HTTP, OTP and WhatsApp metrics). A typed client is at
 * `@wasl/http/client`. The package imports no adapter (the build refuses one): a host provides
 * the services, usually with a layer of `@wasl/adapters`.
 *
 * @example
 * ```ts
 * import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { createServer } from "node:http"
 * import { Deployment } from "@wasl/adapters"
 * import { Routes } from "@wasl/http"
 *
 * Routes.serveWasl.pipe(
 *   Layer.provide(NodeHttpServer.layer(createServer, { port: 3000 })),
 *   Layer.provide(Deployment.WaslEmbedded.layer()),
 *   Layer.launch,
 *   NodeRuntime.runMain
 * )
 * ```
 *
 * @module
 */

/**
 * The REST API as an `effect/http-api` declaration: `WaslApi` and its endpoint groups, the path,
 * query and body schemas, the paginator and the answers' shapes; what the OpenAPI document and the
 * typed client are made from.
 */
export * as Endpoints from "./Endpoints.ts"
/** The error bodies of the API and how domain errors map to them. */
export * as Errors from "./errors.ts"
/**
 * The Prometheus metrics: HTTP requests, OTP sends, WhatsApp callbacks, and the `/metrics` route.
 */
export * as Metrics from "./Metrics.ts"
/**
 * Serving the API: `serveWasl` and the router, the services the handlers need, authentication, rate
 * limits, trusted proxies, idempotency keys, `Retry-After`, closing, the notification stream's
 * limits.
 */
export * as Routes from "./Routes.ts"
