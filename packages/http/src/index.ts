/**
 * Wasl's HTTP API as a library: the contract (`WaslApi`, its groups, endpoints and schemas), its
 * handlers as layers to serve alone (`serveWasl`, `WaslApp`) or to mount beside a host's own
 * routes (`WaslRoutes`), the error bodies, and the OpenAPI document at `/api/openapi.json`.
 *
 * This entry point exports: the API (`WaslApi` and one `...Group` per resource, with their
 * request and answer schemas, `Pagination`, `DeletedAnswer`); the paginator body of a list page
 * (`paginationBody`); serving (`serveWasl`, `WaslApp`,
 * `WaslRoutes`, `waslRouterConfig`, `ServerClosing`, `TrustedProxies`); authentication and limits
 * (`Authentication`, rate-limit and idempotency middleware and their policies); the error bodies
 * and their statuses; the messages of answers; metrics (`MetricsRoute`, HTTP and OTP metrics);
 * and `WaslHttpServices`, the core services the handlers need. A typed client is at
 * `@wasl/http/client`. The package imports no adapter (the build refuses one): a host provides
 * the services, usually with a layer of `@wasl/adapters`.
 *
 * @example
 * ```ts
 * import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
 * import { Layer } from "effect"
 * import { createServer } from "node:http"
 * import { WaslEmbedded } from "@wasl/adapters"
 * import { serveWasl } from "@wasl/http"
 *
 * serveWasl.pipe(
 *   Layer.provide(NodeHttpServer.layer(createServer, { port: 3000 })),
 *   Layer.provide(WaslEmbedded.layer()),
 *   Layer.launch,
 *   NodeRuntime.runMain
 * )
 * ```
 *
 * @module
 */
export * from "./api.ts"
export * from "./deleted-answer.ts"
export * from "./deliveries-api.ts"
export * from "./endpoint-types.ts"
export * from "./errors.ts"
export * from "./health-api.ts"
export * from "./http-metrics.ts"
export * from "./http-services.ts"
export * from "./idempotency.ts"
export * from "./idempotency-openapi.ts"
export * from "./imports-api.ts"
export { KindFromPath, type KindParams, type RecordParams } from "./kind-params.ts"
export { Pagination } from "./list-request.ts"
export * from "./paginator.ts"
export * from "./query-string.ts"
export * from "./messages.ts"
export * from "./members-api.ts"
export * from "./messaging-api.ts"
export * from "./conversations-api.ts"
export * from "./metrics-route.ts"
export * from "./notes-api.ts"
export * from "./notifications-api.ts"
export { DEFAULT_STREAMS_PER_USER, SseHeartbeat, StreamsPerUser } from "./notification-stream.ts"
export * from "./otp-api.ts"
export * from "./otp-metrics.ts"
export * from "./properties-api.ts"
export { AccountSummary, PropertyGroupView, PropertyView, UserSummary } from "./property-views.ts"
export * from "./record-links-api.ts"
export * from "./rate-limit.ts"
export * from "./records-api.ts"
export * from "./profile-api.ts"
export * from "./retry-after.ts"
export * from "./security.ts"
export * from "./server.ts"
export * from "./two-factor-api.ts"
export * from "./server-closing.ts"
export * from "./teams-api.ts"
export * from "./trusted-proxies.ts"
export * from "./webhooks-api.ts"
