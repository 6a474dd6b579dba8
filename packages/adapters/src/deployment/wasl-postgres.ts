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
import { type ServerKeyError } from "@wasl/core/Auth"
import { PublicUrl, type WaslServices } from "@wasl/core/Deployment"
import { RetentionPolicy } from "@wasl/core/Retention"
import { EmbeddedClientLive, MigrationsLive, pgClientOptions, PostgresClientLive } from "../db/database.ts"
import type { DatabaseLockedError, EmbeddedPostgresError } from "../db/embedded-postgres-errors.ts"
import { RepositoriesPg } from "../pg/index.ts"
import { RepositoryCachesPg } from "../pg/cache/repository-caches-pg.ts"
import { NotificationFeedPg } from "../pg/notification-feed-pg.ts"
import { QueueSignalsPg } from "../pg/queue-signals-pg.ts"
import { ReadReplicasPg } from "../pg/read-replicas.ts"
import { masterKey } from "./master-key.ts"
import { nodeServices } from "./node-services.ts"
import {
  checkMailOptions,
  DEFAULT_DATA_DIR,
  deliveryPolicyOf,
  otpCooldownOf,
  publicUrlOf,
  retentionPolicyOf,
  WaslConfigError,
  type WaslOptions
} from "./options.ts"

/**
 * Why a Wasl layer could not be built: the database (`SqlError`; `DatabaseLockedError` and
 * `EmbeddedPostgresError` for the embedded one), the migrations, the server key or a setting
 * (`WaslConfigError`).
 */
export type WaslStartupError =
  | SqlError
  | PgMigrator.MigrationError
  | DatabaseLockedError
  | EmbeddedPostgresError
  | ServerKeyError
  | WaslConfigError

/**
 * The database client a Wasl layer runs on, which it also provides: the host can run its own
 * queries and transactions on the same database.
 */
export type WaslDatabase = PgClient.PgClient | SqlClient

/** Options of `WaslPostgres.layer`. */
export interface WaslPostgresOptions extends WaslOptions {
  /** `DATABASE_URL`: the PostgreSQL server, e.g. `postgres://wasl:secret@db.example:5432/wasl`. */
  readonly url: string
  /**
   * `WASL_DATABASE_READ_URL`: streaming standbys of that server, where the records' list, search and
   * export reads go once a standby has replayed the primary's WAL as far as it was when the read
   * began (so a client reads its own writes); a lagging or unreachable one is skipped. Default: none.
   */
  readonly readUrls?: ReadonlyArray<string> | undefined
  /**
   * `WASL_DATABASE_LISTEN_URL`: set when `url` is a pooler in transaction mode (pgbouncer): the
   * server itself, where the one session that listens for notifications goes; the queries then
   * use no named prepared statements. Default: none (`url` is the server).
   */
  readonly listenUrl?: string | undefined
}

/** Options of `WaslEmbedded.layer`: the database lives in `dataDir` (default `./.wasl-data`). */
export type WaslEmbeddedOptions = WaslOptions

/**
 * The client options Wasl needs (its value codecs and application name): spread them into the
 * options of a `PgClient` you share with Wasl through `WaslPostgres.layerClient`.
 */
export const waslPgClientOptions: typeof pgClientOptions = pgClientOptions

/**
 * Every port over a migrated database; `shared` says whether other processes may use it, `readUrls`
 * its read replicas.
 */
const onDatabase = <E, R>(
  options: WaslOptions,
  database: Layer.Layer<WaslDatabase, E, R>,
  shared: boolean,
  readUrls: ReadonlyArray<string> = []
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
    const retention = yield* retentionPolicyOf(options.retention)
    const otpCooldown = yield* otpCooldownOf(options.messaging?.otpCooldown)
    yield* checkMailOptions(options.mail)
    const publicUrl = yield* publicUrlOf(options.publicUrl)
    // The per-request reads (token, grants, property definitions, /api/me's parts) through the caches.
    const repositories = RepositoryCachesPg().pipe(
      Layer.provideMerge(RepositoriesPg),
      Layer.provide(readUrls.length === 0 ? Layer.empty : ReadReplicasPg(readUrls))
    )
    return Layer.mergeAll(repositories, QueueSignalsPg, NotificationFeedPg, Layer.succeed(RetentionPolicy, retention), Layer.succeed(PublicUrl, publicUrl)).pipe(
      Layer.provideMerge(nodeServices(options, master, policy, otpCooldown)),
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

/**
 * Wasl on a PostgreSQL server (14 or newer): every port the use-cases of `@wasl/core`, the HTTP
 * handlers of `@wasl/http` and the delivery worker of `@wasl/worker` need (`WaslServices`), and the
 * database client it runs on (`WaslDatabase`). Building the layer runs the pending migrations
 * (safe when several processes start at once), reads or creates the server key, and fails with a
 * `WaslStartupError` when the database, the key or a setting cannot be used.
 *
 * Every process sharing the database needs the same server key (`secretKey`): without one, each
 * machine would make its own key file and could not open the others' sealed webhook secrets (a
 * warning is logged).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { bootstrapAccount } from "@wasl/core/Accounts"
 * import { WaslPostgres } from "@wasl/adapters"
 *
 * const Wasl = WaslPostgres.layer({
 *   url: "postgres://wasl:secret@db.example:5432/wasl",
 *   secretKey: process.env.WASL_SECRET_KEY
 * })
 *
 * const program = Effect.gen(function*() {
 *   const { token } = yield* bootstrapAccount({
 *     account: "Acme",
 *     email: "owner@acme.test",
 *     password: "correct horse battery",
 *     plan: "business",
 *     otpCredits: 0
 *   })
 *   console.log(`API token: ${token}`)
 * })
 *
 * Effect.runPromise(program.pipe(Effect.provide(Wasl)))
 * ```
 *
 * @example Sharing the host's client, so that a host transaction around a use-case is one transaction
 * ```ts
 * import { PgClient } from "@effect/sql-pg"
 * import { Layer, Redacted } from "effect"
 * import { WaslPostgres, waslPgClientOptions } from "@wasl/adapters"
 *
 * const HostDatabase = PgClient.layer({ ...waslPgClientOptions, url: Redacted.make("postgres://app@db.example/app") })
 * const Wasl = WaslPostgres.layerClient({ secretKey: process.env.WASL_SECRET_KEY }).pipe(
 *   Layer.provideMerge(HostDatabase)
 * )
 * ```
 */
export const WaslPostgres: {
  /** Every port on the server at `options.url`, with a pool of its own (`maxConnections`, default 10). */
  readonly layer: (options: WaslPostgresOptions) => Layer.Layer<WaslServices | WaslDatabase, WaslStartupError>
  /**
   * Every port on the host's `PgClient`, which must be made with `waslPgClientOptions` and without
   * name transforms (else the layer fails with `WaslConfigError`).
   */
  readonly layerClient: (options?: WaslOptions) => Layer.Layer<WaslServices | WaslDatabase, WaslStartupError, WaslDatabase>
} = {
  layer: (options) => onDatabase(options, PostgresClientLive(options.url, options), true, options.readUrls),
  layerClient: (options = {}) =>
    onDatabase(options, Layer.effectContext(Effect.andThen(checkHostClient, Effect.context<WaslDatabase>())), true)
}

/**
 * Wasl on the embedded PostgreSQL (PGlite, PostgreSQL compiled to WebAssembly and run in-process)
 * kept in a data directory: no database server to run, the same SQL and migrations as
 * `WaslPostgres`. The directory holds the database, the server key file (`secret.key`: keep it in
 * backups beside the data, sealed webhook secrets cannot be read without it) and the local mail and
 * sandbox outboxes.
 *
 * One process holds the directory at a time: building the layer while another process (or an
 * earlier build in this one) holds it fails with `DatabaseLockedError`. Queries run one after
 * another on the single embedded session, which suits one service with modest traffic; move to
 * `WaslPostgres` to scale out.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ensureFirstAccount } from "@wasl/core/Accounts"
 * import { WaslEmbedded } from "@wasl/adapters"
 *
 * const Wasl = WaslEmbedded.layer({ dataDir: "./.wasl-data" })
 *
 * // On an empty database: a first account and its owner's API token.
 * Effect.runPromise(ensureFirstAccount().pipe(Effect.provide(Wasl)))
 * ```
 */
export const WaslEmbedded: {
  /** Every port on the embedded database in `options.dataDir` (default `./.wasl-data`). */
  readonly layer: (options?: WaslEmbeddedOptions) => Layer.Layer<WaslServices | WaslDatabase, WaslStartupError>
} = {
  layer: (options = {}) =>
    onDatabase(options, EmbeddedClientLive({ ...options, dataDir: options.dataDir ?? DEFAULT_DATA_DIR }), false)
}
