/** Configuration, read once at the edge (ARCHITECTURE rule 9). Every variable is in the README. */
import { Config, Option } from "effect"

export const DatabaseConfig = Config.all({
  /** A PostgreSQL server; without it the embedded database under `dataDir` is used. */
  databaseUrl: Config.option(Config.Redacted("DATABASE_URL")),
  dataDir: Config.String("WASL_DATA_DIR").pipe(Config.withDefault("./.wasl-data"))
})
export type DatabaseConfig = Config.Success<typeof DatabaseConfig>

export const ServerConfig = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
})

export const isEmbedded = (config: DatabaseConfig) => Option.isNone(config.databaseUrl)
