/**
 * The command line's database: the server's (`DATABASE_URL`, else the embedded one under
 * `WASL_DATA_DIR`), migrated, with the repositories and hashers the commands use.
 *
 * Only one process may hold the embedded database's directory. When a running Wasl holds it, a
 * command goes through that process's database port instead, as a PostgreSQL client with the
 * password the directory's lock gives its owner, and says so on stderr (stdout keeps the one JSON
 * line). Migrations run there too: the server applied them when it started, so there is nothing
 * left to apply unless this command line is newer than the server. A holder that is gone is taken
 * over as before; one that serves no port yet (still starting) leaves the refusal as it was.
 */
import { Console, Effect, Layer, Redacted } from "effect"
import { PasswordHasherScrypt } from "@wasl/adapters/Crypto"
import { runningEmbeddedServer } from "@wasl/adapters/Embedded"
import { MigrationsLive, PostgresClientLive, ServicesPg } from "@wasl/adapters/Postgres"
import { DatabaseConfig, DatabaseFromConfig } from "@wasl/app-server"

/** The configured database, or the port of the running Wasl holding the embedded one. */
export const CliDatabase = (config: DatabaseConfig) =>
  DatabaseFromConfig(config).pipe(
    Layer.catchTag("DatabaseLockedError", (locked) =>
      Layer.unwrap(Effect.gen(function*() {
        const running = yield* runningEmbeddedServer(config.dataDir)
        if (running === undefined) return yield* locked
        const url = Redacted.value(running.url)
        yield* Console.error(`Using the embedded database of the running Wasl (pid ${running.pid}) at ${new URL(url).host}.`)
        return PostgresClientLive(url, { maxConnections: config.maxConnections })
      })))
  )

/**
 * The repositories and hashers, on the migrated database. It holds no server key, so a command
 * never creates the key file.
 */
export const CliRepositories = (config: DatabaseConfig) =>
  ServicesPg.pipe(
    Layer.provideMerge(PasswordHasherScrypt),
    Layer.provideMerge(MigrationsLive),
    Layer.provideMerge(CliDatabase(config))
  )

/** Runs a command's effect over the configured, migrated database. */
export const withServices = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const config = yield* DatabaseConfig
    return yield* Effect.provide(effect, CliRepositories(config))
  })
