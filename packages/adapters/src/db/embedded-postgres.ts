/**
 * Embedded PostgreSQL: PGlite (PostgreSQL compiled to WebAssembly, in-process) served over the
 * PostgreSQL wire protocol on a loopback port, so the app talks to it with the same
 * `@effect/sql-pg` client, SQL and migrations as a real server.
 *
 * Three parts, a file each: the data directory's process lock (`data-dir-lock.ts`), the wire
 * multiplexer that serves PGlite's single session to many connections (`wire-multiplexer.ts`, which
 * says why not `@electric-sql/pglite-socket` and what sharing one session means), and this
 * launcher, which locks the directory, opens PGlite on `<dataDir>/pgdata`, serves it on a loopback
 * port behind a random password, writes the port and password into the lock (so that the command
 * line run while this process holds the directory connects there: `runningEmbeddedServer`) and
 * relays NOTIFY to in-process subscribers.
 *
 * Extensions: PGlite cannot load an extension from disk at `CREATE EXTENSION` time; the extension
 * bundle must be passed to the PGlite constructor through its `extensions` option (here
 * `pg_trgm`, from `@electric-sql/pglite/contrib/pg_trgm`). That makes it available; the migration
 * still runs `CREATE EXTENSION IF NOT EXISTS pg_trgm`.
 *
 * @module
 */
import { PGlite, type PGliteOptions } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { Context, Effect, Layer, Queue, Redacted, type Scope } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Path from "node:path"
import { acquireDataDirLock, dataDirHolder, pgDataPath } from "./data-dir-lock.ts"
import { type DatabaseLockedError, EmbeddedPostgresError } from "./embedded-postgres-errors.ts"
import { type Notification, serveWire } from "./wire-multiplexer.ts"

/** Options of `EmbeddedPostgres.layer` and `makeEmbeddedPostgres`. */
export interface EmbeddedPostgresOptions {
  /** The data directory (`WASL_DATA_DIR`, app default `./.wasl-data`). Created if missing. */
  readonly dataDir: string
  /** Loopback address to listen on (`127.0.0.1`, another `127.x.x.x`, `::1` or `localhost`). Default `127.0.0.1`. */
  readonly host?: string | undefined
  /** Port to listen on; `0` (the default) lets the OS pick a free one. */
  readonly port?: number | undefined
  /** Connections accepted at once. Default 100. */
  readonly maxConnections?: number | undefined
  /**
   * A tarball of an initialised PGDATA (`PGlite#dumpDataDir`) to start from when `pgdata` is
   * new, skipping `initdb` (tests use it to start in about 1.5 s instead of about 4 s).
   */
  readonly initialDataDir?: Blob | undefined
}

/** A running embedded server: where it listens and how to reach it. */
export interface EmbeddedPostgresService {
  /** The data directory, resolved. */
  readonly dataDir: string
  /** The loopback address it listens on. */
  readonly host: string
  /** The port it listens on. */
  readonly port: number
  /** The database name (`postgres`). */
  readonly database: string
  /** The user name (`postgres`; any is accepted). */
  readonly username: string
  /** The password the port asks for (random, made at start; also in the data directory's lock). */
  readonly password: Redacted.Redacted<string>
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  readonly url: Redacted.Redacted<string>
  /**
   * The PGlite instance (in-process). Prefer the port: direct `query`/`exec` calls run between
   * the socket connections' statements, even inside their transactions.
   */
  readonly pglite: PGlite
  /**
   * Queue of the notifications on `channel` seen by the embedded server, until the scope closes.
   * Only delivers what the backend emits, i.e. while the session `LISTEN`s on the channel:
   * `database.ts`'s `PgClient.listen` does both.
   */
  readonly subscribe: (channel: string) => Effect.Effect<Queue.Dequeue<Notification, SqlError>, never, Scope.Scope>
}

const EmbeddedPostgresBase: Context.ServiceClass<
  EmbeddedPostgres,
  "@wasl/adapters/db/EmbeddedPostgres",
  EmbeddedPostgresService
> = Context.Service<EmbeddedPostgres, EmbeddedPostgresService>()("@wasl/adapters/db/EmbeddedPostgres")

/**
 * The embedded PostgreSQL (PGlite) served on a loopback port, for a client of your own (any
 * PostgreSQL driver can connect to `url`, which holds the password). `WaslEmbedded` starts one itself: use this only to run
 * the embedded server without Wasl's layers.
 */
export class EmbeddedPostgres extends EmbeddedPostgresBase {
  /** The embedded server as a layer; stops and unlocks when the layer is released. */
  static readonly layer = (
    options: EmbeddedPostgresOptions
  ): Layer.Layer<EmbeddedPostgres, DatabaseLockedError | EmbeddedPostgresError> =>
    Layer.effect(EmbeddedPostgres, makeEmbeddedPostgres(options))
}

const DATABASE = "postgres"
const USERNAME = "postgres"

/** The URL of an embedded server's port. */
const urlOf = (server: { readonly host: string; readonly port: number; readonly password: string }) =>
  Redacted.make(
    `postgres://${USERNAME}:${encodeURIComponent(server.password)}@${
      Net.isIPv6(server.host) ? `[${server.host}]` : server.host
    }:${server.port}/${DATABASE}`
  )

/** The port is for this machine's processes only: on a loopback address. */
const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || (Net.isIPv4(host) && host.startsWith("127."))

const startError = (dataDir: string, what: string) => (cause: unknown) =>
  new EmbeddedPostgresError({
    dataDir,
    message: `Cannot start the embedded database at ${Path.resolve(dataDir)}: ${what}: ${
      cause instanceof Error ? cause.message : String(cause)
    }`,
    cause
  })

/**
 * Locks `dataDir`, opens PGlite on `<dataDir>/pgdata` and serves it on a loopback port, for the
 * life of the scope. Closing the scope closes the server (and its connections), PGlite, and unlocks.
 */
export const makeEmbeddedPostgres: (
  options: EmbeddedPostgresOptions
) => Effect.Effect<EmbeddedPostgresService, DatabaseLockedError | EmbeddedPostgresError, Scope.Scope> = Effect.fnUntraced(function*(
  options: EmbeddedPostgresOptions
): Effect.fn.Return<EmbeddedPostgresService, DatabaseLockedError | EmbeddedPostgresError, Scope.Scope> {
  const dataDir = Path.resolve(options.dataDir)
  const host = options.host ?? "127.0.0.1"
  if (!isLoopback(host)) {
    return yield* new EmbeddedPostgresError({
      dataDir,
      message:
        `Cannot start the embedded database at ${dataDir}: its port must be on a loopback address (127.0.0.1, ::1 or localhost), not ${host}`,
      cause: undefined
    })
  }
  const lock = yield* acquireDataDirLock(dataDir)

  const pgdata = pgDataPath(dataDir)
  const fresh = !Fs.existsSync(Path.join(pgdata, "PG_VERSION"))

  const channels = new Map<string, Set<Queue.Queue<Notification, SqlError>>>()
  const deliver = (notification: Notification) => {
    const queues = channels.get(notification.channel)
    if (queues !== undefined) for (const queue of queues) Queue.offerUnsafe(queue, notification)
  }

  const pglite = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        Fs.mkdirSync(pgdata, { recursive: true })
        const pgliteOptions: PGliteOptions = {
          dataDir: pgdata,
          extensions: { pg_trgm },
          ...(fresh && options.initialDataDir !== undefined ? { loadDataDir: options.initialDataDir } : {})
        }
        const db = new PGlite(pgliteOptions)
        await db.waitReady
        return db
      },
      catch: startError(dataDir, "PGlite")
    }),
    (db) => Effect.promise(() => db.close().catch(() => undefined))
  )
  // Direct pglite.query/exec calls go through PGlite's own parser.
  const stopOnNotification = pglite.onNotification((channel, payload) => deliver({ processId: 0, channel, payload }))
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      stopOnNotification()
      for (const queues of channels.values()) for (const queue of queues) Queue.shutdownUnsafe(queue)
      channels.clear()
    })
  )

  const password = randomBytes(32).toString("hex")
  const server = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        serveWire({
          db: pglite,
          host,
          port: options.port ?? 0,
          password,
          maxConnections: options.maxConnections ?? 100,
          onNotification: deliver
        }),
      catch: startError(dataDir, "server")
    }),
    (server) => Effect.promise(() => server.close().catch(() => undefined))
  )
  const port = server.port
  yield* lock.publish({ host, port, password })

  const subscribe = (channel: string) =>
    Effect.acquireRelease(
      Effect.flatMap(Queue.unbounded<Notification, SqlError>(), (queue) =>
        Effect.sync(() => {
          let set = channels.get(channel)
          if (set === undefined) channels.set(channel, set = new Set())
          set.add(queue)
          return queue
        })),
      (queue) =>
        Effect.sync(() => {
          const set = channels.get(channel)
          set?.delete(queue)
          if (set?.size === 0) channels.delete(channel)
          Queue.shutdownUnsafe(queue)
        })
    ).pipe(Effect.map((queue): Queue.Dequeue<Notification, SqlError> => queue))

  return {
    dataDir,
    host,
    port,
    database: DATABASE,
    username: USERNAME,
    password: Redacted.make(password),
    url: urlOf({ host, port, password }),
    pglite,
    subscribe
  }
})

/** The embedded server of another running process, found through its data directory's lock. */
export interface RunningEmbeddedServer {
  /** The process holding the data directory. */
  readonly pid: number
  /** The loopback address of its database port. */
  readonly host: string
  /** Its database port. */
  readonly port: number
  /** `postgres://postgres:<password>@<host>:<port>/postgres`, for a PostgreSQL client. */
  readonly url: Redacted.Redacted<string>
}

/**
 * The embedded server holding `dataDir`, for a process that cannot hold the directory itself
 * (only one may) to connect to as a PostgreSQL client: when a live process on this machine holds
 * it, serves it, and this user can read its lock. Else undefined: the directory is free, its lock
 * stale (opening it takes the lock over), or its holder still starting.
 */
export const runningEmbeddedServer = (dataDir: string): Effect.Effect<RunningEmbeddedServer | undefined> =>
  Effect.map(dataDirHolder(dataDir), (holder) =>
    holder === undefined
      ? undefined
      : { pid: holder.pid, host: holder.server.host, port: holder.server.port, url: urlOf(holder.server) })
