/**
 * Embedded PostgreSQL: PGlite behind the wire multiplexer, its data directory and lock, its errors.
 *
 * @module
 */
export {
  acquireDataDirLock,
  type DataDirLock,
  dataDirLockPath,
  type DataDirServer,
  pgDataPath
} from "./db/data-dir-lock.ts"
export * from "./db/embedded-postgres.ts"
export * from "./db/embedded-postgres-errors.ts"
export { makeBackendScanner, type Notification } from "./db/wire-multiplexer.ts"
