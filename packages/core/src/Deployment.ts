/**
 * What a deployment provides: the Transactor, the services Wasl needs (`WaslServices`), readiness,
 * the public URL, durations as written in settings.
 *
 * @module
 */
export * from "./duration-text.ts"
export * from "./public-url.ts"
export * from "./transactor.ts"
export * from "./services.ts"
export * from "./health/readiness.ts"
