/** The service's ports over the configured database: what every app process runs on. */
import { Redacted } from "effect"
import { WaslEmbedded, WaslPostgres } from "@wasl/adapters/Deployment"
import { DatabaseLive } from "@wasl/adapters/Postgres"
import type { DatabaseConfig, WaslConfig } from "./config.ts"

/**
 * The database client for the configuration: `DATABASE_URL`, else the embedded one under
 * `WASL_DATA_DIR`, with a pool of `WASL_DATABASE_POOL` connections (behind a pooler, the server
 * itself for LISTEN at `WASL_DATABASE_LISTEN_URL`).
 */
export const DatabaseFromConfig = (config: DatabaseConfig) =>
  DatabaseLive({
    databaseUrl: config.databaseUrl === undefined ? undefined : Redacted.value(config.databaseUrl),
    dataDir: config.dataDir,
    maxConnections: config.maxConnections,
    listenUrl: config.listenUrl === undefined ? undefined : Redacted.value(config.listenUrl)
  })

/**
 * Every port, on the configured database: `WaslPostgres` with `DATABASE_URL` (and its read replicas,
 * `WASL_DATABASE_READ_URL`), else `WaslEmbedded`.
 */
export const AppServicesLive = ({ databaseUrl, listenUrl, readUrls, ...options }: WaslConfig) =>
  databaseUrl === undefined ? WaslEmbedded.layer(options) : WaslPostgres.layer({ ...options, url: databaseUrl, readUrls, listenUrl })
