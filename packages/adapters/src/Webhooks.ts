/**
 * The webhook HTTPS transport and its DNS address guard.
 *
 * @module
 */
export * from "./webhooks/webhook-transport-http.ts"
export * from "./webhooks/webhook-url-guard-dns.ts"
