/**
 * Webhook deliveries: states, retry policy, requests, the backlog and repository, the delivery log
 * and recovery.
 *
 * @module
 */
export * from "./webhooks/delivery-state.ts"
export * from "./webhooks/delivery-policy.ts"
export * from "./webhooks/delivery-request.ts"
export * from "./webhooks/delivery-repository.ts"
export * from "./webhooks/delivery-resource.ts"
export * from "./use-cases/delivery-log.ts"
export * from "./use-cases/recover-deliveries.ts"
export * from "./use-cases/deliveries.ts"
export * from "./webhooks/delivery-backlog.ts"
