/** The service's ports over the configured database: what every app process runs on. */
import { Layer, Option, Redacted } from "effect"
import { DatabaseLive, MigrationsLive, PasswordHasherScrypt, ServicesPg } from "@wasl/adapters"
import type { DatabaseConfig } from "./config.ts"
import { WebhookServicesLive } from "./webhook-services.ts"
import { MessagingServicesLive } from "./messaging-services.ts"

/** The database client for the configuration: `DATABASE_URL`, else the embedded one under `WASL_DATA_DIR`. */
export const DatabaseFromConfig = (config: DatabaseConfig) =>
  DatabaseLive({
    databaseUrl: Option.getOrUndefined(Option.map(config.databaseUrl, Redacted.value)),
    dataDir: config.dataDir
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

/** Every port, on a migrated database. */
export const AppServicesLive = (config: DatabaseConfig) =>
  ServicesPg.pipe(
    Layer.provideMerge(WebhookServicesLive),
    Layer.provideMerge(MessagingServicesLive),
    Layer.provideMerge(PasswordHasherScrypt),
    Layer.provideMerge(MigrationsLive),
    Layer.provideMerge(DatabaseFromConfig(config))
  )
