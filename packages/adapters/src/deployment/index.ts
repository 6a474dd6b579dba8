export * from "./master-key.ts"
export * from "./node-services.ts"
export * from "./options.ts"
export * from "./wasl-postgres.ts"
