/**
 * CSV imports: uploads, jobs and limits, their repository and processing.
 *
 * @module
 */
export * from "./imports/import-job.ts"
export * from "./imports/import-limits.ts"
export * from "./imports/import-repository.ts"
export * from "./imports/csv-upload.ts"
export * from "./use-cases/imports.ts"
export * from "./use-cases/import-processing.ts"
