/**
 * Wasl's HTTP API as a library: the contract (`WaslApi`, its groups, endpoints and schemas), its
 * handlers as layers to serve alone (`serveWasl`, `WaslApp`) or to mount beside a host's own
 * routes (`WaslRoutes`), the error bodies, and the OpenAPI document at `/api/openapi.json`.
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
export type { KindParams, RecordParams } from "./kind-params.ts"
export { Pagination } from "./list-request.ts"
export * from "./messages.ts"
export * from "./messaging-api.ts"
export * from "./metrics-route.ts"
export * from "./notes-api.ts"
export * from "./notifications-api.ts"
export { SseHeartbeat } from "./notification-stream.ts"
export * from "./otp-api.ts"
export * from "./otp-metrics.ts"
export * from "./properties-api.ts"
export { AccountSummary, PropertyGroupView, PropertyView, UserSummary } from "./property-views.ts"
export * from "./record-links-api.ts"
export * from "./rate-limit.ts"
export * from "./records-api.ts"
export * from "./retry-after.ts"
export * from "./security.ts"
export * from "./server.ts"
export * from "./server-closing.ts"
export * from "./trusted-proxies.ts"
export * from "./webhooks-api.ts"
