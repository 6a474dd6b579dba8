/**
 * Wasl on PostgreSQL, in one layer: every port the use-cases, the HTTP handlers and the delivery
 * worker need (`WaslServices`), over a migrated database. Three ways to name the database:
 *
 * - `WaslPostgres.layer({ url })`: a PostgreSQL server (14 or newer) by URL, with its own pool;
 * - `WaslPostgres.layerClient(options)`: the host's own `PgClient`, made with
 *   `waslPgClientOptions` (Wasl reads timestamps and bigints in its own forms), shared with the
 *   host — so a host transaction around a Wasl use-case is one transaction;
 * - `WaslEmbedded.layer({ dataDir })`: the embedded PostgreSQL (PGlite) kept in `dataDir`, one
 *   process at a time.
 *
 * Migrations run when the layer is built (safe under concurrent starts). The layer also exposes
 * the `PgClient`/`SqlClient` it runs on.
 */
import { PgClient, type PgMigrator } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { ServerKeyError, WaslServices } from "@wasl/core"
import { EmbeddedClientLive, MigrationsLive, pgClientOptions, PostgresClientLive } from "../db/database.ts"
import type { DatabaseLockedError, EmbeddedPostgresError } from "../db/embedded-postgres.ts"
import { RepositoriesPg } from "../pg/index.ts"
import { QueueSignalsPg } from "../pg/queue-signals-pg.ts"
import { masterKey } from "./master-key.ts"
import { nodeServices } from "./node-services.ts"
import { DEFAULT_DATA_DIR, deliveryPolicyOf, WaslConfigError, type WaslOptions } from "./options.ts"

/** Why a Wasl layer could not be built: the database, the migrations, the key or a setting. */
export type WaslStartupError =
  | SqlError
  | PgMigrator.MigrationError
  | DatabaseLockedError
  | EmbeddedPostgresError
  | ServerKeyError
  | WaslConfigError

/** The database client a Wasl layer runs on, which it also provides. */
export type WaslDatabase = PgClient.PgClient | SqlClient

/** Options of `WaslPostgres.layer`. */
export interface WaslPostgresOptions extends WaslOptions {
  /** `DATABASE_URL`: the PostgreSQL server, e.g. `postgres://wasl:secret@db.example:5432/wasl`. */
  readonly url: string
}

/** Options of `WaslEmbedded.layer`: the database lives in `dataDir` (default `./.wasl-data`). */
export type WaslEmbeddedOptions = WaslOptions

/**
 * The client options Wasl needs (its value codecs and application name): spread them into the
 * options of a `PgClient` you share with Wasl through `WaslPostgres.layerClient`.
 */
export const waslPgClientOptions: typeof pgClientOptions = pgClientOptions

/** Every port over a migrated database; `shared` says whether other processes may use it. */
const onDatabase = <E, R>(
  options: WaslOptions,
  database: Layer.Layer<WaslDatabase, E, R>,
  shared: boolean
): Layer.Layer<WaslServices | WaslDatabase, E | WaslStartupError, R> =>
  Layer.unwrap(Effect.gen(function*() {
    const dataDir = options.dataDir ?? DEFAULT_DATA_DIR
    const master = yield* masterKey(options.secretKey, dataDir)
    if (shared && options.secretKey === undefined) {
      // Processes on other machines sharing this database would each make their own key file and
      // could not open each other's sealed secrets.
      yield* Effect.logWarning(
        `No server key is set: using the key file in ${dataDir}. Every process sharing this database ` +
          "must use the same key: set WASL_SECRET_KEY (64 hex characters) on each of them."
      )
    }
    const policy = yield* deliveryPolicyOf(options.webhooks)
    return Layer.mergeAll(RepositoriesPg, QueueSignalsPg).pipe(
      Layer.provideMerge(nodeServices(options, master, policy)),
      Layer.provideMerge(MigrationsLive),
      Layer.provideMerge(database)
    )
  }))

/** Refuses a host client whose codecs or name transforms differ from Wasl's. */
const checkHostClient = Effect.gen(function*() {
  const { config } = yield* PgClient.PgClient
  if (config.types !== pgClientOptions.types || config.transformResultNames !== undefined || config.transformQueryNames !== undefined) {
    return yield* new WaslConfigError({
      message: "WaslPostgres.layerClient needs a PgClient made with waslPgClientOptions " +
        "(Wasl's value types) and without name transforms"
    })
  }
})

/** Wasl on a PostgreSQL server. */
export const WaslPostgres: {
  /** Every port on the server at `options.url`, with a pool of its own. */
  readonly layer: (options: WaslPostgresOptions) => Layer.Layer<WaslServices | WaslDatabase, WaslStartupError>
  /** Every port on the host's `PgClient` (made with `waslPgClientOptions`). */
  readonly layerClient: (options?: WaslOptions) => Layer.Layer<WaslServices | WaslDatabase, WaslStartupError, WaslDatabase>
} = {
  layer: (options) => onDatabase(options, PostgresClientLive(options.url, options), true),
  layerClient: (options = {}) =>
    onDatabase(options, Layer.effectContext(Effect.andThen(checkHostClient, Effect.context<WaslDatabase>())), true)
}

/** Wasl on the embedded PostgreSQL (PGlite) kept in a data directory. */
export const WaslEmbedded: {
  /** Every port on the embedded database in `options.dataDir` (default `./.wasl-data`). */
  readonly layer: (options?: WaslEmbeddedOptions) => Layer.Layer<WaslServices | WaslDatabase, WaslStartupError>
} = {
  layer: (options = {}) =>
    onDatabase(options, EmbeddedClientLive({ ...options, dataDir: options.dataDir ?? DEFAULT_DATA_DIR }), false)
}
