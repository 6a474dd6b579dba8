/**
 * Embedded PostgreSQL: PGlite (PostgreSQL compiled to WebAssembly, in-process) served over the
 * PostgreSQL wire protocol on a loopback port, so the app talks to it with the same
 * `@effect/sql-pg` client, SQL and migrations as a real server.
 *
 * Layout of the data directory (`WASL_DATA_DIR`, default `./.wasl-data`):
 *
 *   <dataDir>/wasl.lock   the process lock: JSON `{ pid, hostname, token, createdAt }`
 *   <dataDir>/pgdata/     PGlite's PGDATA (PGlite runs `initdb` there on first start)
 *
 * One process holds the directory. The lock file is created with `O_CREAT | O_EXCL`; a second
 * open (another process, or a second open inside this process) fails fast with
 * `DatabaseLockedError`. A lock left behind by a dead process (its pid no longer exists, or it is
 * this process's own pid but not a lock this process took, as after a container restart) is stale
 * and taken over.
 *
 * ## Why not `PGLiteSocketServer` (`@electric-sql/pglite-socket` 0.2.17)
 *
 * We started with it and found, by experiment against `PGLiteSocketServer` itself:
 *
 * - It accepts ONE connection by default (`maxConnections: 1`; the next is answered
 *   "Too many connections" and closed); its `maxConnections` option raises that.
 * - With several connections it is NOT safe for the extended query protocol that
 *   `@effect/sql-pg` (and node-postgres, postgres.js...) use. PGlite is a single backend session;
 *   pglite-socket multiplexes the sockets onto it protocol MESSAGE by message, and only keeps a
 *   connection exclusive while `IsTransactionBlock()` (after `BEGIN` has executed). Messages of
 *   two connections interleave inside a Parse/Bind/Execute/Sync cycle: one connection's `Bind`
 *   replaces the other's unnamed portal, an error makes the backend skip the other's messages up
 *   to Sync, and two `BEGIN`s race. With 10 concurrent `withTransaction`s, 167 of 200 failed
 *   (`portal "" does not exist`, `Unexpected ReadyForQuery during rows`).
 * - LISTEN/NOTIFY does not reach the listener: with one backend, a `NotificationResponse` is
 *   written to the socket of the connection whose statement produced it (the notifier).
 *
 * So this module serves PGlite with its own small multiplexer (`serveWire` below, same framing
 * as pglite-socket): a connection holds the session from its first message until a
 * `ReadyForQuery` reports the session idle (`I`), i.e. for a whole protocol cycle (through Sync)
 * and for a whole transaction (`T`/`E`). The other connections queue (FIFO). Consequences:
 *
 * - any number of connections, transactions and concurrent queries work (tests: 300 concurrent
 *   queries, concurrent transactions, concurrent migrations);
 * - a transaction blocks every other connection until it ends: no parallelism, no row-lock waits
 *   (`FOR UPDATE SKIP LOCKED` trivially sees nothing locked by others). Code that, inside
 *   `sql.withTransaction`, waits for a query on ANOTHER connection deadlocks (no timeout), where
 *   real PostgreSQL would not;
 * - session state is shared by all connections (`SET`, temp tables, advisory locks, `LISTEN`,
 *   prepared statements: `@effect/sql-pg` names these with a random per-connection namespace);
 * - a connection that goes away mid-cycle or mid-transaction gets a Sync and a `ROLLBACK`;
 * - LISTEN/NOTIFY: the server scans PGlite's output for `NotificationResponse` messages and hands
 *   them to `subscribe(channel)` queues (in-process). `database.ts` builds a `PgClient` whose
 *   `listen` uses them (it still issues the real `LISTEN`, which the backend needs to emit
 *   notifications at all). Only this process can hold the embedded database, so every `NOTIFY`
 *   is seen. A plain client's `LISTEN` on the port receives nothing;
 * - no TLS (SSL/GSS requests are answered `N`), no authentication (any user is accepted), no
 *   query cancellation (CancelRequest is ignored), `Terminate` closes the socket.
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
import { type Cause, Context, Effect, Layer, Queue, Schema, Scope } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"

// -----------------------------------------------------------------------------
// errors
// -----------------------------------------------------------------------------

/** @ignore */
export const DatabaseLockedErrorBase: Schema.Class<
  DatabaseLockedError,
  Schema.TaggedStruct<"DatabaseLockedError", {
    readonly dataDir: Schema.String
    readonly lockFile: Schema.String
    readonly pid: Schema.NullOr<Schema.Number>
    readonly message: Schema.String
  }>,
  Cause.YieldableError
> = Schema.TaggedError<DatabaseLockedError>()("DatabaseLockedError", {
  dataDir: Schema.String,
  lockFile: Schema.String,
  /** The holder's pid, `null` when the lock file could not be read. */
  pid: Schema.NullOr(Schema.Number),
  message: Schema.String
})

/**
 * The data directory is held by another process (or by an earlier open in this one): one process
 * at a time opens an embedded database. `lockFile` names the lock, `pid` its holder (`null` when
 * the lock file could not be read). A lock left by a process that no longer runs is taken over
 * instead.
 */
export class DatabaseLockedError extends DatabaseLockedErrorBase {}

/** @ignore */
export const EmbeddedPostgresErrorBase: Schema.Class<
  EmbeddedPostgresError,
  Schema.TaggedStruct<"EmbeddedPostgresError", {
    readonly dataDir: Schema.String
    readonly message: Schema.String
    readonly cause: Schema.Defect
  }>,
  Cause.YieldableError
> = Schema.TaggedError<EmbeddedPostgresError>()("EmbeddedPostgresError", {
  dataDir: Schema.String,
  message: Schema.String,
  cause: Schema.Defect()
})

/**
 * The embedded database could not be started (data directory, PGlite or its wire server); the
 * message says which and why, `cause` holds the underlying error.
 */
export class EmbeddedPostgresError extends EmbeddedPostgresErrorBase {}

// -----------------------------------------------------------------------------
// lock
// -----------------------------------------------------------------------------

/** The lock file of a data directory. Internal plumbing of the embedded database. */
export const dataDirLockPath = (dataDir: string): string => Path.join(Path.resolve(dataDir), "wasl.lock")

/** PGlite's PGDATA inside a data directory. Internal plumbing of the embedded database. */
export const pgDataPath = (dataDir: string): string => Path.join(Path.resolve(dataDir), "pgdata")

interface LockContent {
  readonly pid: number
  readonly hostname: string
  readonly token: string
  readonly createdAt: string
}

/** Lock files this process holds (by path), to tell "held by me" from "stale, same pid". */
const heldLocks = new Set<string>()

/** A lock younger than this whose content cannot be parsed is being written: treat as held. */
const unreadableLockGraceMs = 5_000

const lockedMessage = (dataDir: string, pid: number | null) =>
  `The embedded database at ${Path.resolve(dataDir)} is in use by another Wasl process (pid ${
    pid ?? "unknown"
  }). Stop it first or set DATABASE_URL.`

const isProcessAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const readLock = (lockFile: string): { readonly raw: string; readonly content: LockContent | undefined } | undefined => {
  let raw: string
  try {
    raw = Fs.readFileSync(lockFile, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw error
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockContent>
    return Number.isSafeInteger(parsed.pid) && typeof parsed.token === "string"
      ? { raw, content: parsed as LockContent }
      : { raw, content: undefined }
  } catch {
    return { raw, content: undefined }
  }
}

type LockAttempt =
  | { readonly _tag: "Acquired"; readonly token: string }
  | { readonly _tag: "Held"; readonly pid: number | null }
  | { readonly _tag: "Stale"; readonly pid: number | null }

const tryCreateLock = (lockFile: string): LockAttempt => {
  const token = randomBytes(12).toString("hex")
  const content: LockContent = { pid: process.pid, hostname: Os.hostname(), token, createdAt: new Date().toISOString() }
  let fd: number
  try {
    fd = Fs.openSync(lockFile, Fs.constants.O_CREAT | Fs.constants.O_EXCL | Fs.constants.O_WRONLY, 0o644)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    const existing = readLock(lockFile)
    if (existing === undefined) return { _tag: "Stale", pid: null } // removed meanwhile: retry
    const holder = existing.content
    if (holder === undefined) {
      const age = Date.now() - Fs.statSync(lockFile).mtimeMs
      if (age < unreadableLockGraceMs) return { _tag: "Held", pid: null }
      removeStaleLock(lockFile, existing.raw)
      return { _tag: "Stale", pid: null }
    }
    const alive = holder.pid === process.pid ? heldLocks.has(lockFile) : isProcessAlive(holder.pid)
    if (alive) return { _tag: "Held", pid: holder.pid }
    removeStaleLock(lockFile, existing.raw)
    return { _tag: "Stale", pid: holder.pid }
  }
  try {
    Fs.writeSync(fd, JSON.stringify(content) + "\n")
    Fs.fsyncSync(fd)
  } finally {
    Fs.closeSync(fd)
  }
  heldLocks.add(lockFile)
  return { _tag: "Acquired", token }
}

/** Removes a stale lock, unless it changed since it was read (another process took it over). */
const removeStaleLock = (lockFile: string, raw: string): void => {
  const now = readLock(lockFile)
  if (now !== undefined && now.raw === raw) Fs.rmSync(lockFile, { force: true })
}

const releaseLock = (lockFile: string, token: string): void => {
  heldLocks.delete(lockFile)
  const now = readLock(lockFile)
  if (now?.content?.token === token) Fs.rmSync(lockFile, { force: true })
}

/**
 * Takes the exclusive lock of a data directory (creating the directory if needed) for the life
 * of the scope. Fails with `DatabaseLockedError` when a live process holds it. Internal plumbing
 * of the embedded database.
 */
export const acquireDataDirLock = (
  dataDir: string
): Effect.Effect<void, DatabaseLockedError | EmbeddedPostgresError, Scope.Scope> => {
  const lockFile = dataDirLockPath(dataDir)
  const acquire = Effect.gen(function*() {
    yield* Effect.try({
      try: () => Fs.mkdirSync(Path.dirname(lockFile), { recursive: true }),
      catch: (cause) =>
        new EmbeddedPostgresError({
          dataDir,
          message: `Cannot create the data directory ${Path.resolve(dataDir)}: ${String(cause)}`,
          cause
        })
    })
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = yield* Effect.try({
        try: () => tryCreateLock(lockFile),
        catch: (cause) =>
          new EmbeddedPostgresError({ dataDir, message: `Cannot lock ${lockFile}: ${String(cause)}`, cause })
      })
      switch (result._tag) {
        case "Acquired":
          return result.token
        case "Held":
          return yield* new DatabaseLockedError({
            dataDir: Path.resolve(dataDir),
            lockFile,
            pid: result.pid,
            message: lockedMessage(dataDir, result.pid)
          })
        case "Stale":
          if (result.pid !== null) {
            yield* Effect.logWarning(`Taking over the stale lock of ${Path.resolve(dataDir)} left by pid ${result.pid}`)
          }
      }
    }
    return yield* new EmbeddedPostgresError({
      dataDir,
      message: `Cannot lock ${lockFile}: it keeps changing`,
      cause: undefined
    })
  })
  return Effect.asVoid(Effect.acquireRelease(acquire, (token) => Effect.sync(() => releaseLock(lockFile, token))))
}

// -----------------------------------------------------------------------------
// wire server
// -----------------------------------------------------------------------------

/**
 * A NOTIFY seen in PGlite's protocol output: the shape of `@effect/sql-pg`'s
 * `PgConnection.Notification`, so that the embedded server's queues serve `PgClient.listen`.
 */
export interface Notification {
  /** The notifying backend's process id (0 for a direct PGlite call). */
  readonly processId: number
  /** The channel notified. */
  readonly channel: string
  /** The payload, `""` when none. */
  readonly payload: string
}

const READY_FOR_QUERY = 0x5a // 'Z'
const NOTIFICATION_RESPONSE = 0x41 // 'A'
const TERMINATE = 0x58 // 'X'
const IDLE = 0x49 // 'I': ReadyForQuery status outside a transaction

/**
 * Scans a stream of backend messages (in chunks, split anywhere) for `NotificationResponse`
 * ('A': int32 length, int32 pid, cstring channel, cstring payload) and the transaction status of
 * `ReadyForQuery` ('Z': 'I' idle, 'T' in a transaction, 'E' in a failed transaction). Internal
 * plumbing of the embedded server; the returned function takes each chunk.
 */
export const makeBackendScanner = (handlers: {
  readonly onNotification: (notification: Notification) => void
  readonly onReadyForQuery: (status: number) => void
}): (chunk: Uint8Array) => void => {
  const header = new Uint8Array(5)
  let headerFill = 0
  let remaining = 0
  let capture: Uint8Array | undefined
  let captureFill = 0
  const decoder = new TextDecoder()
  const finish = () => {
    const type = header[0]
    if (type === READY_FOR_QUERY && capture !== undefined && capture.length >= 1) {
      handlers.onReadyForQuery(capture[0])
    } else if (type === NOTIFICATION_RESPONSE && capture !== undefined && capture.length >= 4) {
      const pid = ((capture[0] << 24) | (capture[1] << 16) | (capture[2] << 8) | capture[3]) >>> 0
      const channelEnd = capture.indexOf(0, 4)
      const payloadEnd = channelEnd === -1 ? -1 : capture.indexOf(0, channelEnd + 1)
      if (channelEnd !== -1 && payloadEnd !== -1) {
        handlers.onNotification({
          processId: pid,
          channel: decoder.decode(capture.subarray(4, channelEnd)),
          payload: decoder.decode(capture.subarray(channelEnd + 1, payloadEnd))
        })
      }
    }
    capture = undefined
    headerFill = 0
  }
  return (chunk: Uint8Array): void => {
    let index = 0
    while (index < chunk.length) {
      if (headerFill < 5) {
        header[headerFill++] = chunk[index++]
        if (headerFill === 5) {
          remaining = Math.max(((header[1] << 24) | (header[2] << 16) | (header[3] << 8) | header[4]) - 4, 0)
          if (header[0] === NOTIFICATION_RESPONSE || header[0] === READY_FOR_QUERY) {
            capture = new Uint8Array(remaining)
            captureFill = 0
          }
          if (remaining === 0) finish()
        }
        continue
      }
      const take = Math.min(remaining, chunk.length - index)
      if (capture !== undefined) capture.set(chunk.subarray(index, index + take), captureFill)
      captureFill += take
      index += take
      remaining -= take
      if (remaining === 0) finish()
    }
  }
}

/** FIFO ownership of the single PGlite session. */
class SessionQueue {
  private owner: object | undefined = undefined
  private readonly waiting: Array<{ readonly who: object; readonly resume: () => void }> = []

  acquire(who: object): Promise<void> {
    if (this.owner === who) return Promise.resolve()
    if (this.owner === undefined) {
      this.owner = who
      return Promise.resolve()
    }
    return new Promise((resume) => this.waiting.push({ who, resume }))
  }

  release(who: object): void {
    if (this.owner !== who) return
    const next = this.waiting.shift()
    this.owner = next?.who
    next?.resume()
  }
}

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102
const MAX_STARTUP_LENGTH = 10_000

const syncMessage = new Uint8Array([0x53, 0, 0, 0, 4])
const queryMessage = (text: string): Uint8Array => {
  const body = new TextEncoder().encode(`${text}\0`)
  const message = new Uint8Array(5 + body.length)
  message[0] = 0x51 // 'Q'
  new DataView(message.buffer).setInt32(1, 4 + body.length)
  message.set(body, 5)
  return message
}

/** A running wire server: its port, and `close` (closes sockets, waits for their cleanup). */
interface WireServer {
  readonly port: number
  readonly close: () => Promise<void>
}

/**
 * Serves `db` on `host:port` with the PostgreSQL wire protocol, one PGlite session shared by
 * every connection (see the module comment for the rules).
 */
const serveWire = (options: {
  readonly db: PGlite
  readonly host: string
  readonly port: number
  readonly maxConnections: number
  readonly onNotification: (notification: Notification) => void
}): Promise<WireServer> => {
  const { db, onNotification } = options
  const session = new SessionQueue()
  const connections = new Set<Promise<void>>()

  const serveConnection = (socket: Net.Socket): Promise<void> => {
    const self = {}
    let buffer: Buffer = Buffer.alloc(0)
    let started = false
    let closed = false
    let holding = false
    /** Messages were sent since the last ReadyForQuery. */
    let midCycle = false
    let status = IDLE
    const scan = makeBackendScanner({
      onNotification,
      onReadyForQuery: (value) => {
        status = value
        midCycle = false
      }
    })
    const run = (message: Uint8Array, forward: boolean) =>
      db.runExclusive(() =>
        db.execProtocolRawStream(message, {
          onRawData: (data) => {
            scan(data)
            if (forward && !closed && socket.writable) socket.write(data)
          }
        })
      )

    type Frame =
      | { readonly _tag: "Message"; readonly bytes: Uint8Array }
      | { readonly _tag: "Negotiate" }
      | { readonly _tag: "Close" }
    const nextFrame = (): Frame | undefined => {
      if (!started) {
        if (buffer.length < 8) return undefined
        const length = buffer.readInt32BE(0)
        const code = buffer.readInt32BE(4)
        if (length < 8 || length > MAX_STARTUP_LENGTH) return { _tag: "Close" }
        if (buffer.length < length) return undefined
        const bytes = new Uint8Array(buffer.subarray(0, length))
        buffer = buffer.subarray(length)
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) return { _tag: "Negotiate" }
        if (code === CANCEL_REQUEST) return { _tag: "Close" }
        started = true
        return { _tag: "Message", bytes }
      }
      if (buffer.length < 5) return undefined
      const length = 1 + buffer.readInt32BE(1)
      if (length < 5) return { _tag: "Close" }
      if (buffer.length < length) return undefined
      const bytes = new Uint8Array(buffer.subarray(0, length))
      buffer = buffer.subarray(length)
      return bytes[0] === TERMINATE ? { _tag: "Close" } : { _tag: "Message", bytes }
    }

    const processBuffered = async (): Promise<void> => {
      for (;;) {
        if (closed) return
        const frame = nextFrame()
        if (frame === undefined) return
        if (frame._tag === "Negotiate") {
          socket.write("N")
          continue
        }
        if (frame._tag === "Close") {
          socket.destroy()
          return
        }
        if (!holding) {
          await session.acquire(self)
          holding = true
          if (closed) return
        }
        midCycle = true
        await run(frame.bytes, true)
        if (!midCycle && status === IDLE) {
          holding = false
          session.release(self)
        }
      }
    }

    /** Leaves the shared session as found: ends an open cycle, rolls back a transaction. */
    const cleanup = async (): Promise<void> => {
      if (!holding) return
      try {
        if (midCycle) await run(syncMessage, false)
        if (status !== IDLE) await run(queryMessage("ROLLBACK"), false)
      } finally {
        holding = false
        session.release(self)
      }
    }

    let work: Promise<void> = Promise.resolve()
    const enqueue = (task: () => Promise<void>) => {
      work = work.then(task).catch(() => {
        socket.destroy()
      })
    }
    socket.setNoDelay(true)
    socket.on("data", (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
      enqueue(processBuffered)
    })
    socket.on("error", () => socket.destroy())
    return new Promise<void>((resolve) => {
      socket.on("close", () => {
        closed = true
        enqueue(cleanup)
        work.then(resolve, resolve)
      })
    })
  }

  return new Promise((resolve, reject) => {
    const sockets = new Set<Net.Socket>()
    const server = Net.createServer((socket) => {
      sockets.add(socket)
      const done = serveConnection(socket)
      connections.add(done)
      done.then(() => {
        sockets.delete(socket)
        connections.delete(done)
      })
    })
    server.maxConnections = options.maxConnections
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      server.off("error", reject)
      const address = server.address()
      resolve({
        port: typeof address === "object" && address !== null ? address.port : options.port,
        close: async () => {
          const closedServer = new Promise<void>((done) => server.close(() => done()))
          for (const socket of sockets) socket.destroy()
          await Promise.all([closedServer, ...connections])
        }
      })
    })
  })
}

// -----------------------------------------------------------------------------
// service
// -----------------------------------------------------------------------------

/** Options of `EmbeddedPostgres.layer` and `makeEmbeddedPostgres`. */
export interface EmbeddedPostgresOptions {
  /** The data directory (`WASL_DATA_DIR`, app default `./.wasl-data`). Created if missing. */
  readonly dataDir: string
  /** Loopback address to listen on. Default `127.0.0.1`. */
  readonly host?: string | undefined
  /** Port to listen on; `0` (the default) lets the OS pick a free one. */
  readonly port?: number | undefined
  /** Connections accepted at once. Default 100. */
  readonly maxConnections?: number | undefined
  /**
   * A tarball of an initialised PGDATA (`PGlite#dumpDataDir`) to start from when `pgdata` is
   * new, skipping `initdb` (tests use it to start in ~0.5 s instead of ~2.5 s).
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
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string
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

/** @ignore */
export const EmbeddedPostgresBase: Context.ServiceClass<
  EmbeddedPostgres,
  "@wasl/adapters/db/EmbeddedPostgres",
  EmbeddedPostgresService
> = Context.Service<EmbeddedPostgres, EmbeddedPostgresService>()("@wasl/adapters/db/EmbeddedPostgres")

/**
 * The embedded PostgreSQL (PGlite) served on a loopback port, for a client of your own (any
 * PostgreSQL driver can connect to `url`). `WaslEmbedded` starts one itself: use this only to run
 * the embedded server without Wasl's layers.
 */
export class EmbeddedPostgres extends EmbeddedPostgresBase {
  /** The embedded server as a layer; stops and unlocks when the layer is released. */
  static readonly layer = (
    options: EmbeddedPostgresOptions
  ): Layer.Layer<EmbeddedPostgres, DatabaseLockedError | EmbeddedPostgresError> =>
    Layer.effect(EmbeddedPostgres, makeEmbeddedPostgres(options))
}

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
  yield* acquireDataDirLock(dataDir)

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

  const host = options.host ?? "127.0.0.1"
  const server = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        serveWire({
          db: pglite,
          host,
          port: options.port ?? 0,
          maxConnections: options.maxConnections ?? 100,
          onNotification: deliver
        }),
      catch: startError(dataDir, "server")
    }),
    (server) => Effect.promise(() => server.close().catch(() => undefined))
  )
  const port = server.port

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

  const database = "postgres"
  const username = "postgres"
  return {
    dataDir,
    host,
    port,
    database,
    username,
    url: `postgres://${username}@${host}:${port}/${database}`,
    pglite,
    subscribe
  }
})
