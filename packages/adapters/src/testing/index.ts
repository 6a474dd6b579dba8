/**
 * Contract suites for Wasl's ports, runnable by anyone against their own adapter, and fresh
 * test databases (embedded PGlite, or PostgreSQL) for adapters that need one.
 */
export * from "./messaging-repositories-contract.ts"
export * from "./otp-ledger-contract.ts"
export * from "./otp-reservation-contract.ts"
export * from "./delivery-repository-contract.ts"
export * from "./outbox-contract.ts"
export * from "./outbox-notify-contract.ts"
export * from "./properties-contract.ts"
export * from "./queue-signals-contract.ts"
export * from "./repositories-contract.ts"
export * from "../db/test-database.ts"
export * from "./note-repository-contract.ts"
export * from "./property-value-store-contract.ts"
export * from "./record-list-contract.ts"
export * from "./record-repository-contract.ts"
