/**
 * PostgreSQL: the database layers and migrations, the repositories of every port
 * (`RepositoriesPg`), the record storage and list statements, the repository semantics.
 *
 * @module
 */
export * from "./db/database.ts"
export { migrations } from "./db/migrations/index.ts"
export * from "./pg/index.ts"
export * from "./repository-semantics.ts"
export * from "./services-pg.ts"
export * from "./pg/records/list-statement.ts"
export * from "./pg/records/storage.ts"
