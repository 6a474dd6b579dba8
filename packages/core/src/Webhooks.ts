/**
 * Webhooks: their states, URLs and the address policy, event names and bodies, signatures
 * (`X-Wasl-Signature`, Standard Webhooks), the receiver helpers, the use-cases.
 *
 * @module
 */
export * from "./webhooks/webhook-state.ts"
export * from "./webhooks/signature.ts"
export * from "./webhooks/standard-webhooks.ts"
export * from "./webhooks/webhook-receiver.ts"
export * from "./webhooks/address-policy.ts"
export * from "./webhooks/webhook-transport.ts"
export * from "./webhooks/webhook.ts"
export * from "./webhooks/webhook-body.ts"
export * from "./webhooks/webhook-repository.ts"
export * from "./webhooks/webhook-url.ts"
export * from "./use-cases/webhooks.ts"
export * from "./use-cases/webhook-deactivated-notice.ts"
