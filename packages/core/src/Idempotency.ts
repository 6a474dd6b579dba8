/**
 * Idempotency keys: the store and its rules.
 *
 * @module
 */
export * from "./idempotency/idempotency-store.ts"
