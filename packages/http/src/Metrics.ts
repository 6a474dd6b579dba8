/**
 * The Prometheus metrics: HTTP requests, OTP sends, WhatsApp callbacks, and the `/metrics` route.
 *
 * @module
 */
export * from "./http-metrics.ts"
export * from "./metrics-route.ts"
export * from "./otp-metrics.ts"
