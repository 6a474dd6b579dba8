/**
 * Whole deployments as layers: `WaslPostgres`, `WaslEmbedded`, the Node services, the master key,
 * their options.
 *
 * @module
 */
export * from "./deployment/index.ts"
