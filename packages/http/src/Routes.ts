/**
 * Serving the API: `serveWasl` and the router, the services the handlers need, authentication, rate
 * limits, trusted proxies, idempotency keys, `Retry-After`, closing, the notification stream's
 * limits.
 *
 * @module
 */
export * from "./http-services.ts"
export * from "./idempotency.ts"
export { DEFAULT_STREAMS_PER_USER, SseHeartbeat, StreamsPerUser } from "./notification-stream.ts"
export * from "./rate-limit.ts"
export * from "./retry-after.ts"
export * from "./security.ts"
export * from "./server.ts"
export * from "./server-closing.ts"
export * from "./trusted-proxies.ts"
