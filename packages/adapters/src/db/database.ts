/**
 * The database layer: `PgClient` + `SqlClient` from `@effect/sql-pg`, on `DATABASE_URL` when it is
 * set, else on the embedded PGlite served on a loopback port (`embedded-postgres.ts`). Same client,
 * same SQL, same migrations either way. `PgClient.listen` is replaced on both: on a server, every
 * channel is listened on over one session of its own, outside the pool; on the embedded database,
 * by an in-process equivalent (same contract) because LISTEN cannot work over its single session.
 *
 * Value types (binary protocol, `pgTypes` registry below), chosen so rows map straight onto the
 * wire shapes:
 *
 * | PostgreSQL     | JavaScript | note                                                               |
 * |----------------|------------|--------------------------------------------------------------------|
 * | int2/int4      | number     | built-in                                                           |
 * | int8 (bigint, bigserial, count(*)) | number | ids and counters. A value outside ±(2^53-1) fails to decode (CodecError) rather than silently losing precision. Accepts number or bigint as parameter. |
 * | timestamptz    | string     | `2026-11-21T17:24:05.123456Z`: ISO 8601, UTC, always 6 fraction digits, exactly the API's timestamp format (a `Date` would drop the microseconds). `infinity`/`-infinity` as is. As a parameter pass that string (bound untyped, PostgreSQL parses it), a `Date` or epoch ms. |
 * | timestamp      | Date       | built-in; use timestamptz for every column                          |
 * | date           | string     | built-in, `YYYY-MM-DD`                                              |
 * | numeric        | string     | built-in, exact decimal text                                        |
 * | json/jsonb     | parsed     | built-in, on both databases: repositories read objects, never text; write with `sql.json(value)` (PgClient) or a string |
 * | uuid/text      | string     | built-in                                                           |
 * | bool           | boolean    | built-in                                                           |
 *
 * Arrays of these (`int8[]`, `timestamptz[]`) decode element-wise the same way. Column names are
 * not transformed (snake_case stays snake_case, as on the wire).
 *
 * Note: a JS number parameter binds as int4 (or int8 when it does not fit), a string binds untyped
 * (so it works against any column type), a Date as timestamptz.
 *
 * @module
 */
import { PgClient, PgConnection, PgMigrator, PgTypes } from "@effect/sql-pg"
import { formatIsoMicros, utcMillis } from "@wasl/core/Wire"
import { Effect, Layer, RcRef, Redacted, Result, type Scope, Semaphore } from "effect"
import type { Reactivity } from "effect/reactivity"
import type { SqlClient } from "effect/sql/SqlClient"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { type EmbeddedPostgresService, makeEmbeddedPostgres } from "./embedded-postgres.ts"
import type { DatabaseLockedError, EmbeddedPostgresError } from "./embedded-postgres-errors.ts"
import { migrations } from "./migrations/index.ts"

// -----------------------------------------------------------------------------
// types
// -----------------------------------------------------------------------------

const codecError = (message: string) => new PgTypes.CodecError({ message })

const readInt32 = (bytes: Uint8Array, offset: number): number =>
  (bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]

const readUint32 = (bytes: Uint8Array, offset: number): number => readInt32(bytes, offset) >>> 0

const writeInt32 = (bytes: Uint8Array, offset: number, value: number): void => {
  bytes[offset] = value >>> 24
  bytes[offset + 1] = value >>> 16
  bytes[offset + 2] = value >>> 8
  bytes[offset + 3] = value
}

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** int8 as a JS number. */
const int8AsNumber: PgTypes.Codec<number | bigint> = {
  read: (bytes, offset, size) => {
    if (size !== 8) return Result.fail(codecError(`int8: expected 8 bytes, received ${size}`))
    const value = readInt32(bytes, offset) * 4294967296 + readUint32(bytes, offset + 4)
    if (!Number.isSafeInteger(value)) {
      const high = BigInt(readInt32(bytes, offset))
      const exact = (high << 32n) | BigInt(readUint32(bytes, offset + 4))
      return Result.fail(codecError(`int8 value ${exact} does not fit a JavaScript number`))
    }
    return Result.succeed(value)
  },
  decode: (bytes) => int8AsNumber.read!(bytes, 0, bytes.length),
  encode: (value) => {
    const bytes = new Uint8Array(8)
    if (typeof value === "bigint") {
      if (value < INT64_MIN || value > INT64_MAX) return Result.fail(codecError(`int8 out of range: ${value}`))
      new DataView(bytes.buffer).setBigInt64(0, value)
      return Result.succeed(bytes)
    }
    if (!Number.isSafeInteger(value)) return Result.fail(codecError(`int8: expected a safe integer, received ${value}`))
    const high = Math.floor(value / 4294967296)
    writeInt32(bytes, 0, high)
    writeInt32(bytes, 4, value - high * 4294967296)
    return Result.succeed(bytes)
  }
}

/** Microseconds between 1970-01-01 and PostgreSQL's epoch 2000-01-01. */
const PG_EPOCH_MICROS = 946_684_800_000_000

const formatUnixMicros = (unixMicros: number): string => {
  const ms = Math.floor(unixMicros / 1000)
  return formatIsoMicros(ms, unixMicros - ms * 1000)
}

const isoTimestamp =
  /^(\d{4,6})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}(?::?\d{2})?)$/i

/**
 * Parses an ISO 8601 timestamp with an offset into Unix microseconds, as a bigint: past ±285 years
 * from 1970 they leave the safe integers.
 */
const parseUnixMicros = (text: string): bigint | undefined => {
  const match = isoTimestamp.exec(text)
  if (match === null) return undefined
  const [, year, month, day, hour, minute, second, fraction = "", zone] = match
  // Not Date.UTC: it reads the years 0–99 as 1900–1999 and rolls 2026-02-30 over to March.
  const ms = utcMillis(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second), 0)
  if (Number.isNaN(ms)) return undefined
  let offsetMinutes = 0
  if (zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "")
    offsetMinutes = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0")) * (zone[0] === "-" ? -1 : 1)
  }
  return BigInt(ms - offsetMinutes * 60_000) * 1000n + BigInt(fraction.padEnd(6, "0").slice(0, 6))
}

/** timestamptz as `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
const timestamptzAsString: PgTypes.Codec<string | Date | number> = {
  read: (bytes, offset, size) => {
    if (size !== 8) return Result.fail(codecError(`timestamptz: expected 8 bytes, received ${size}`))
    const high = readInt32(bytes, offset)
    const low = readUint32(bytes, offset + 4)
    if (high === 0x7fffffff && low === 0xffffffff) return Result.succeed("infinity")
    if (high === -0x80000000 && low === 0) return Result.succeed("-infinity")
    const micros = high * 4294967296 + low
    if (Number.isSafeInteger(micros) && Number.isSafeInteger(micros + PG_EPOCH_MICROS)) {
      return Result.succeed(formatUnixMicros(micros + PG_EPOCH_MICROS))
    }
    // Beyond ±285 years of 2000: exact arithmetic down to the millisecond.
    const exact = ((BigInt(high) << 32n) | BigInt(low)) + BigInt(PG_EPOCH_MICROS)
    const ms = exact >= 0n ? exact / 1000n : (exact - 999n) / 1000n
    return Result.succeed(formatIsoMicros(Number(ms), Number(exact - ms * 1000n)))
  },
  decode: (bytes) => timestamptzAsString.read!(bytes, 0, bytes.length),
  encode: (value) => {
    if (typeof value === "string") {
      if (value === "infinity") return PgTypes.encode(Number.POSITIVE_INFINITY, PgTypes.OID.timestamptz)
      if (value === "-infinity") return PgTypes.encode(Number.NEGATIVE_INFINITY, PgTypes.OID.timestamptz)
      const unixMicros = parseUnixMicros(value)
      if (unixMicros === undefined) return Result.fail(codecError(`timestamptz: cannot parse "${value}"`))
      const bytes = new Uint8Array(8)
      new DataView(bytes.buffer).setBigInt64(0, unixMicros - BigInt(PG_EPOCH_MICROS))
      return Result.succeed(bytes)
    }
    // Date or epoch milliseconds: the built-in codec.
    return PgTypes.encode(value, PgTypes.OID.timestamptz)
  }
}

const makeTypes = (): PgTypes.Registry => {
  const registry = PgTypes.makeRegistry()
  registry.register(PgTypes.OID.int8, int8AsNumber, { arrayOid: PgTypes.OID.int8Array })
  registry.register(PgTypes.OID.timestamptz, timestamptzAsString, { arrayOid: PgTypes.OID.timestamptzArray })
  return registry
}

/** The codec registry every Wasl client uses (see the table at the top of this file). */
export const pgTypes: PgTypes.Registry = makeTypes()

/**
 * Client options shared by every Wasl database client (server, worker, CLI, tests): Wasl's value
 * codecs (`pgTypes`) and its application name. Spread them into the options of a `PgClient`.
 */
export const pgClientOptions: { types: PgTypes.Registry; applicationName: string } = {
  types: pgTypes,
  applicationName: "wasl"
} satisfies Partial<PgClient.PgPoolConfig>

// -----------------------------------------------------------------------------
// clients
// -----------------------------------------------------------------------------

/** The embedded database's directory when `WASL_DATA_DIR` is not set (relative to the working directory). */
export const defaultDataDir = "./.wasl-data"

/** Options of `DatabaseLive`. */
export interface DatabaseOptions {
  /** `DATABASE_URL`: a PostgreSQL server. When unset, the embedded database is used. */
  readonly databaseUrl?: string | undefined
  /** `WASL_DATA_DIR` (default `./.wasl-data`): the embedded database's directory. */
  readonly dataDir: string
  /** Pool size. Default 10. */
  readonly maxConnections?: number | undefined
  /** `WASL_DATABASE_LISTEN_URL`: the server itself when `databaseUrl` is a pooler (`PostgresClientLive`). */
  readonly listenUrl?: string | undefined
}

const channelError = (channel: string): SqlError | undefined =>
  channel.length === 0 || channel.includes("\0") || new TextEncoder().encode(channel).length > 63
    ? new SqlError({
      reason: new UnknownError({
        cause: new Error(`Invalid channel name: ${JSON.stringify(channel)}`),
        message: "PgClient: a channel name must be 1 to 63 bytes without NUL",
        operation: "listen"
      })
    })
    : undefined

/**
 * Replaces `client.listen` with one fed by the embedded server's notification tap: PGlite is one
 * backend session, so its `NotificationResponse` goes to the connection that ran the NOTIFY, never
 * to a listening one (see embedded-postgres.ts). It still runs `LISTEN` (once per channel,
 * reference counted) so that the session emits the notifications, and `UNLISTEN` when the last
 * listener goes; no connection is held while listening. `notify` is unchanged
 * (`SELECT pg_notify(...)`). Calling `listen` inside a transaction LISTENs at its commit, as on
 * PostgreSQL.
 */
const withEmbeddedListen = (client: PgClient.PgClient, embedded: EmbeddedPostgresService): PgClient.PgClient => {
  const listening = new Map<string, number>()
  const lock = Semaphore.makeUnsafe(1)
  const register = (channel: string) =>
    lock.withPermits(1)(Effect.suspend(() => {
      const count = listening.get(channel) ?? 0
      return (count === 0 ? client`LISTEN ${client(channel)}`.raw : Effect.void).pipe(
        Effect.tap(() => Effect.sync(() => listening.set(channel, count + 1)))
      )
    }))
  const unregister = (channel: string) =>
    lock.withPermits(1)(Effect.suspend(() => {
      const count = (listening.get(channel) ?? 1) - 1
      if (count > 0) return Effect.sync(() => listening.set(channel, count))
      listening.delete(channel)
      return Effect.ignore(client`UNLISTEN ${client(channel)}`.raw)
    }))
  const listen: PgClient.PgClient["listen"] = (channel) => {
    const invalid = channelError(channel)
    if (invalid !== undefined) return Effect.fail(invalid)
    return Effect.gen(function*() {
      const queue = yield* embedded.subscribe(channel)
      yield* Effect.acquireRelease(register(channel), () => unregister(channel))
      return queue
    })
  }
  return Object.assign(client, { listen })
}

/**
 * A `PgClient` on the embedded server, with LISTEN working through the notification tap.
 * Used by `DatabaseLive` and `TestDatabase`; internal plumbing of the embedded database.
 */
export const makeEmbeddedPgClient = (
  embedded: EmbeddedPostgresService,
  options?: { readonly maxConnections?: number | undefined }
): Effect.Effect<PgClient.PgClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  PgClient.make({
    ...pgClientOptions,
    host: embedded.host,
    port: embedded.port,
    database: embedded.database,
    username: embedded.username,
    password: embedded.password,
    maxConnections: options?.maxConnections ?? 10
  }).pipe(Effect.map((client) => withEmbeddedListen(client, embedded)))

/**
 * Replaces `client.listen` with one on a session of its own, outside the pool, which every channel
 * the process listens on shares: opened by the first listener, closed when the last one stops.
 * `PgClient.listen` reserves a pooled connection per channel for as long as it listens, so the
 * queries had fewer connections than the pool's size (the server's cache listener and
 * notification feed took two of ten, the worker's queue signals two: four in one `npm start`), and
 * none with a pool that small (every query then waited forever). A session that ends (a restart,
 * a terminated backend) fails its listeners' queues; each listens again (they retry), and the
 * first to find the session gone makes the next one open a new session.
 */
const withListenSession = (
  client: PgClient.PgClient,
  listenUrl: string | undefined
): Effect.Effect<PgClient.PgClient, never, Scope.Scope> =>
  Effect.map(
    // Pinned: the session runs nothing but LISTEN, UNLISTEN and the notifications they bring.
    RcRef.make({
      acquire: Effect.flatMap(
        PgConnection.make(listenUrl === undefined ? client.config : { ...pgClientOptions, url: Redacted.make(listenUrl) }),
        (connection) => connection.pin
      )
    }),
    (session) => {
      const listen: PgClient.PgClient["listen"] = (channel) =>
        Effect.flatMap(RcRef.get(session), (pinned) => pinned.listen(channel)).pipe(
          Effect.tapError(() => RcRef.invalidate(session))
        )
      return Object.assign(client, { listen })
    }
  )

/**
 * `PgClient` + `SqlClient` on a PostgreSQL URL, with Wasl's client options: a pool of
 * `maxConnections` (default 10) for the queries, and one more session while the process listens
 * for notifications (`withListenSession`).
 *
 * With `listenUrl` (`WASL_DATABASE_LISTEN_URL`), `url` is a pooler in transaction mode (pgbouncer)
 * and `listenUrl` the server itself: the session that listens goes there, since a pooler that
 * hands each transaction to any server connection cannot keep a LISTEN, and the queries use no
 * named prepared statements, which it cannot keep from one transaction to the next either.
 */
export const PostgresClientLive = (
  url: string,
  options?: { readonly maxConnections?: number | undefined; readonly listenUrl?: string | undefined }
): Layer.Layer<PgClient.PgClient | SqlClient, SqlError> =>
  PgClient.layerFrom(
    PgClient.make({
      ...pgClientOptions,
      url: Redacted.make(url),
      ...(options?.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options?.listenUrl === undefined ? {} : { prepare: false })
    }).pipe(Effect.flatMap((client) => withListenSession(client, options?.listenUrl)))
  )

/** `PgClient` + `SqlClient` on a freshly started embedded server (locked for the layer's life). */
export const EmbeddedClientLive = (
  options: { readonly dataDir: string; readonly maxConnections?: number | undefined }
): Layer.Layer<PgClient.PgClient | SqlClient, SqlError | DatabaseLockedError | EmbeddedPostgresError> =>
  PgClient.layerFrom(
    Effect.flatMap(makeEmbeddedPostgres({ dataDir: options.dataDir }), (embedded) =>
      makeEmbeddedPgClient(embedded, options))
  )

/**
 * The application's database: `PgClient.PgClient` and `SqlClient.SqlClient` on `databaseUrl`
 * when set, else on the embedded PostgreSQL under `dataDir`.
 */
export const DatabaseLive = (
  options: DatabaseOptions
): Layer.Layer<PgClient.PgClient | SqlClient, SqlError | DatabaseLockedError | EmbeddedPostgresError> =>
  options.databaseUrl !== undefined && options.databaseUrl !== ""
    ? PostgresClientLive(options.databaseUrl, options)
    : EmbeddedClientLive(options)

// -----------------------------------------------------------------------------
// migrations
// -----------------------------------------------------------------------------

/** The table recording applied migrations. */
export const migrationsTable = "wasl_migrations"

/**
 * Runs the pending migrations (in one transaction, under `LOCK TABLE`, so concurrent starts are
 * safe) and returns the ones applied, as `[id, name]`. `PgMigrator.make({})` is `@effect/sql-pg`'s
 * migrator without the `pg_dump` schema dump, which would otherwise require child-process/file-system
 * services.
 */
export const runMigrations: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  PgMigrator.MigrationError | SqlError,
  SqlClient
> = PgMigrator.make({})({ loader: migrations, table: migrationsTable })

/** Runs the migrations when the layer is built. */
export const MigrationsLive: Layer.Layer<never, PgMigrator.MigrationError | SqlError, SqlClient> = Layer.effectDiscard(
  runMigrations
)
