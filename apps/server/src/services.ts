/** The service's ports over the configured database: what every app process runs on. */
import { Layer, Redacted } from "effect"
import { DatabaseLive, MigrationsLive, PasswordHasherScrypt, ServicesPg, WaslEmbedded, WaslPostgres } from "@wasl/adapters"
import type { DatabaseConfig, WaslConfig } from "./config.ts"

/**
 * The database client for the configuration: `DATABASE_URL`, else the embedded one under
 * `WASL_DATA_DIR`, with a pool of `WASL_DATABASE_POOL` connections.
 */
export const DatabaseFromConfig = (config: DatabaseConfig) =>
  DatabaseLive({
    databaseUrl: config.databaseUrl === undefined ? undefined : Redacted.value(config.databaseUrl),
    dataDir: config.dataDir,
    maxConnections: config.maxConnections
  })

/**
 * The repositories and hashers, on a migrated database: what the command line needs. It holds no
 * server key, so a CLI run never creates the key file.
 */
export const AppRepositoriesLive = (config: DatabaseConfig) =>
  ServicesPg.pipe(
    Layer.provideMerge(PasswordHasherScrypt),
    Layer.provideMerge(MigrationsLive),
    Layer.provideMerge(DatabaseFromConfig(config))
  )

/** Every port, on the configured database: `WaslPostgres` with `DATABASE_URL`, else `WaslEmbedded`. */
export const AppServicesLive = ({ databaseUrl, ...options }: WaslConfig) =>
  databaseUrl === undefined ? WaslEmbedded.layer(options) : WaslPostgres.layer({ ...options, url: databaseUrl })
