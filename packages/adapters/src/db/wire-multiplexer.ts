/**
 * The PostgreSQL wire protocol served over one PGlite session: many loopback connections
 * multiplexed onto PGlite's single backend, a whole protocol cycle or transaction at a time.
 *
 * Why not `PGLiteSocketServer` (`@electric-sql/pglite-socket` 0.2.17):
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
 * So Wasl serves PGlite with its own small multiplexer (`serveWire` here, same framing
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
 * - authentication: every connection must give the `password` (MD5: the password never crosses
 *   the socket, and each connection's random salt makes a recorded answer useless), checked
 *   before its StartupMessage reaches PGlite; a wrong one is refused (`28P01`) and closed. Any
 *   user name is accepted. The port is on a loopback address, the password lives in this process
 *   and in the data directory's lock (readable by its owner only), so another user of the machine
 *   cannot use the database;
 * - no TLS (SSL/GSS requests are answered `N`; loopback traffic does not leave the machine), no
 *   query cancellation (CancelRequest is ignored), `Terminate` closes the socket.
 *
 * @module
 */
import type { PGlite } from "@electric-sql/pglite"
import { PgAuth } from "@effect/sql-pg"
import { Result } from "effect"
import { randomBytes, timingSafeEqual } from "node:crypto"
import * as Net from "node:net"

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
const PASSWORD_MESSAGE = 0x70 // 'p'
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

/** AuthenticationMD5Password ('R', code 5) with the connection's salt. */
const md5Request = (salt: Uint8Array): Uint8Array => {
  const message = new Uint8Array(13)
  const view = new DataView(message.buffer)
  message[0] = 0x52 // 'R'
  view.setInt32(1, 12)
  view.setInt32(5, 5)
  message.set(salt, 9)
  return message
}

/** A FATAL ErrorResponse ('E') with its SQLSTATE and message. */
const fatalError = (code: string, text: string): Uint8Array => {
  const fields = new TextEncoder().encode(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`)
  const message = new Uint8Array(5 + fields.length)
  message[0] = 0x45 // 'E'
  new DataView(message.buffer).setInt32(1, 4 + fields.length)
  message.set(fields, 5)
  return message
}

/** The `user` parameter of a StartupMessage (int32 length, int32 version, then name/value pairs). */
const startupUser = (startup: Uint8Array): string => {
  const parameters = new TextDecoder().decode(startup.subarray(8)).split("\0")
  for (let i = 0; i + 1 < parameters.length; i += 2) if (parameters[i] === "user") return parameters[i + 1]
  return ""
}

/** Whether a PasswordMessage ('p', then the answer as a C string) answers the MD5 challenge. */
const answersChallenge = (message: Uint8Array, expected: string): boolean => {
  if (message[0] !== PASSWORD_MESSAGE) return false
  const end = message.indexOf(0, 5)
  const answer = Buffer.from(message.subarray(5, end === -1 ? message.length : end))
  const wanted = Buffer.from(expected)
  return answer.length === wanted.length && timingSafeEqual(answer, wanted)
}
const queryMessage = (text: string): Uint8Array => {
  const body = new TextEncoder().encode(`${text}\0`)
  const message = new Uint8Array(5 + body.length)
  message[0] = 0x51 // 'Q'
  new DataView(message.buffer).setInt32(1, 4 + body.length)
  message.set(body, 5)
  return message
}

/** A running wire server: its port, and `close` (closes sockets, waits for their cleanup). */
export interface WireServer {
  readonly port: number
  readonly close: () => Promise<void>
}

/**
 * Serves `db` on `host:port` with the PostgreSQL wire protocol, one PGlite session shared by
 * every connection that gives `password` (see the module comment for the rules).
 */
export const serveWire = (options: {
  readonly db: PGlite
  readonly host: string
  readonly port: number
  readonly password: string
  readonly maxConnections: number
  readonly onNotification: (notification: Notification) => void
}): Promise<WireServer> => {
  const { db, onNotification, password } = options
  const session = new SessionQueue()
  const connections = new Set<Promise<void>>()

  const serveConnection = (socket: Net.Socket): Promise<void> => {
    const self = {}
    let buffer: Buffer = Buffer.alloc(0)
    let started = false
    /** The StartupMessage, held back until the password checks out, then PGlite's first message. */
    let startup: Uint8Array | undefined
    let user = ""
    /** What the PasswordMessage must say to answer this connection's challenge. */
    let expectedAnswer = ""
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
      | { readonly _tag: "Startup"; readonly bytes: Uint8Array }
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
        return { _tag: "Startup", bytes }
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
        if (frame._tag === "Startup") {
          const salt = randomBytes(4)
          startup = frame.bytes
          user = startupUser(frame.bytes)
          expectedAnswer = Result.getOrThrow(PgAuth.md5Password({ user, password, salt }))
          socket.write(md5Request(salt))
          continue
        }
        let message = frame.bytes
        if (startup !== undefined) {
          // The first message after the StartupMessage: the password, or the door.
          if (!answersChallenge(message, expectedAnswer)) {
            closed = true
            socket.end(fatalError("28P01", `password authentication failed for user "${user}"`))
            return
          }
          message = startup
          startup = undefined
        }
        if (!holding) {
          await session.acquire(self)
          holding = true
          if (closed) return
        }
        midCycle = true
        await run(message, true)
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
