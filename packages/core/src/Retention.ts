/**
 * Retention: how long each kind of row is kept, and the pruning.
 *
 * @module
 */
export * from "./retention/retention-policy.ts"
export * from "./retention/retention.ts"
export * from "./use-cases/prune.ts"
