/**
 * CSV exports: requests, files and cells, their repository and the export run.
 *
 * @module
 */
export * from "./exports/export.ts"
export * from "./exports/export-repository.ts"
export * from "./exports/export-request.ts"
export * from "./exports/csv-cells.ts"
export * from "./exports/csv-file.ts"
export * from "./use-cases/exports.ts"
export * from "./use-cases/export-run.ts"
