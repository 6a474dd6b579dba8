import { assert, describe, it, layer } from "@effect/vitest"
import { PgAuth, PgClient } from "@effect/sql-pg"
import { Deferred, Duration, Effect, Exit, Fiber, Layer, Option, Queue, Redacted, Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, type SqlError } from "effect/sql"
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { makeEmbeddedPgClient } from "../../src/db/database.ts"
import { acquireDataDirLock, dataDirLockPath } from "../../src/db/data-dir-lock.ts"
import { EmbeddedPostgres, makeEmbeddedPostgres, runningEmbeddedServer } from "../../src/db/embedded-postgres.ts"
import { DatabaseLockedError } from "../../src/db/embedded-postgres-errors.ts"
import { makeBackendScanner, type Notification } from "../../src/db/wire-multiplexer.ts"
import { makePgliteTestDatabase } from "../../src/db/test-database.ts"

const tempDir = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-embedded-test-"))

/** A pid that existed and is gone. */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", ""])
  assert.isNumber(child.pid)
  return child.pid!
}

const writeLock = (dir: string, pid: number, more: Record<string, unknown> = {}) => {
  Fs.mkdirSync(dir, { recursive: true })
  Fs.writeFileSync(
    dataDirLockPath(dir),
    JSON.stringify({ pid, hostname: Os.hostname(), token: "stale", createdAt: new Date().toISOString(), ...more })
  )
}

const lockedMessage = /^The embedded database at .+ is in use by another Wasl process \(pid \d+\)\. Stop it first or set DATABASE_URL\.$/

describe("data directory lock", () => {
  it.effect("a second lock of the same directory fails fast, and the lock is released on close", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const scope = yield* Scope.make()
      yield* acquireDataDirLock(dir).pipe(Scope.provide(scope))
      const lock = JSON.parse(Fs.readFileSync(dataDirLockPath(dir), "utf8"))
      assert.strictEqual(lock.pid, process.pid)

      const error = yield* Effect.flip(Effect.scoped(acquireDataDirLock(dir)))
      assert.instanceOf(error, DatabaseLockedError)
      assert.strictEqual(error._tag, "DatabaseLockedError")
      assert.strictEqual(error.pid, process.pid)
      assert.match(error.message, lockedMessage)
      assert.include(error.message, Path.resolve(dir))

      yield* Scope.close(scope, Exit.void)
      assert.isFalse(Fs.existsSync(dataDirLockPath(dir)))
      yield* Effect.scoped(acquireDataDirLock(dir))
      Fs.rmSync(dir, { recursive: true, force: true })
    }))

  it.effect("the lock file is readable by its owner only", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      yield* Effect.scoped(Effect.gen(function*() {
        yield* acquireDataDirLock(dir)
        assert.strictEqual(Fs.statSync(dataDirLockPath(dir)).mode & 0o777, 0o600)
      }))
      Fs.rmSync(dir, { recursive: true, force: true })
    }))

  it.effect("a stale lock of a dead pid is taken over", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const pid = deadPid()
      writeLock(dir, pid)
      yield* Effect.scoped(Effect.gen(function*() {
        yield* acquireDataDirLock(dir)
        assert.strictEqual(JSON.parse(Fs.readFileSync(dataDirLockPath(dir), "utf8")).pid, process.pid)
      }))
      assert.isFalse(Fs.existsSync(dataDirLockPath(dir)))
      Fs.rmSync(dir, { recursive: true, force: true })
    }))

  it.effect("a lock with this process's pid that this process did not take is stale (pid reuse after restart)", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      writeLock(dir, process.pid)
      yield* Effect.scoped(acquireDataDirLock(dir))
      Fs.rmSync(dir, { recursive: true, force: true })
    }))

  it.effect("a lock held by a live process is respected", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      writeLock(dir, process.ppid)
      const error = yield* Effect.flip(Effect.scoped(acquireDataDirLock(dir)))
      assert.strictEqual(error._tag, "DatabaseLockedError")
      assert.strictEqual((error as DatabaseLockedError).pid, process.ppid)
      assert.strictEqual(JSON.parse(Fs.readFileSync(dataDirLockPath(dir), "utf8")).token, "stale")
      Fs.rmSync(dir, { recursive: true, force: true })
    }))
})

describe("the running embedded server of a data directory", () => {
  const published = { server: { host: "127.0.0.1", port: 5999, password: "secret" } }

  it.effect("is none for a free directory, a lock without a server (a holder still starting), a dead holder's or another host's", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      assert.isUndefined(yield* runningEmbeddedServer(dir))
      writeLock(dir, process.ppid)
      assert.isUndefined(yield* runningEmbeddedServer(dir))
      writeLock(dir, deadPid(), published)
      assert.isUndefined(yield* runningEmbeddedServer(dir))
      writeLock(dir, process.ppid, { ...published, hostname: `not-${Os.hostname()}` })
      assert.isUndefined(yield* runningEmbeddedServer(dir))
      Fs.rmSync(dir, { recursive: true, force: true })
    }))

  it.effect("is the live holder's port and password, as its lock says", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      writeLock(dir, process.ppid, published)
      const running = yield* runningEmbeddedServer(dir)
      assert.deepStrictEqual(running === undefined ? undefined : { ...running, url: Redacted.value(running.url) }, {
        pid: process.ppid,
        host: "127.0.0.1",
        port: 5999,
        url: "postgres://postgres:secret@127.0.0.1:5999/postgres"
      })
      Fs.rmSync(dir, { recursive: true, force: true })
    }))

  it.effect("an embedded server publishes its port and password in its lock once it listens", () =>
    Effect.scoped(Effect.gen(function*() {
      const embedded = yield* makePgliteTestDatabase
      const lock = JSON.parse(Fs.readFileSync(dataDirLockPath(embedded.dataDir), "utf8"))
      assert.strictEqual(lock.pid, process.pid)
      assert.deepStrictEqual(lock.server, { host: "127.0.0.1", port: embedded.port, password: Redacted.value(embedded.password) })
      assert.strictEqual(Fs.statSync(dataDirLockPath(embedded.dataDir)).mode & 0o777, 0o600)
      const running = yield* runningEmbeddedServer(embedded.dataDir)
      assert.strictEqual(running?.port, embedded.port)
      assert.strictEqual(running === undefined ? undefined : Redacted.value(running.url), Redacted.value(embedded.url))
    })))

  it.effect("an embedded server listens on a loopback address only", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const error = yield* Effect.flip(Effect.scoped(makeEmbeddedPostgres({ dataDir: dir, host: "0.0.0.0" })))
      assert.strictEqual(error._tag, "EmbeddedPostgresError")
      assert.strictEqual(
        error.message,
        `Cannot start the embedded database at ${dir}: its port must be on a loopback address (127.0.0.1, ::1 or localhost), not 0.0.0.0`
      )
      assert.isFalse(Fs.existsSync(dataDirLockPath(dir)))
      Fs.rmSync(dir, { recursive: true, force: true })
    }))
})

describe("backend message scanner", () => {
  it("extracts NotificationResponse and ReadyForQuery status, messages split across chunks", () => {
    const seen: Array<Notification> = []
    const statuses: Array<string> = []
    const scan = makeBackendScanner({
      onNotification: (n) => seen.push(n),
      onReadyForQuery: (status) => statuses.push(String.fromCharCode(status))
    })
    const message = (type: string, body: Uint8Array) => {
      const out = new Uint8Array(5 + body.length)
      out[0] = type.charCodeAt(0)
      new DataView(out.buffer).setInt32(1, body.length + 4)
      out.set(body, 5)
      return out
    }
    const text = new TextEncoder()
    const notify = (pid: number, channel: string, payload: string) => {
      const body = new Uint8Array([0, 0, 0, 0, ...text.encode(channel), 0, ...text.encode(payload), 0])
      new DataView(body.buffer).setInt32(0, pid)
      return message("A", body)
    }
    const stream = new Uint8Array([
      ...message("C", text.encode("SELECT 1\0")),
      ...notify(42, "chan", "héllo"),
      ...message("Z", new Uint8Array([73])),
      ...notify(7, "other", ""),
      ...message("D", new Uint8Array(70_000)),
      ...message("Z", new Uint8Array([84]))
    ])
    for (let i = 0; i < stream.length; i += 3) scan(stream.subarray(i, i + 3))
    assert.deepStrictEqual(seen, [
      { processId: 42, channel: "chan", payload: "héllo" },
      { processId: 7, channel: "other", payload: "" }
    ])
    assert.deepStrictEqual(statuses, ["I", "T"])
  })
})

/**
 * A raw wire-protocol client, to misbehave in ways a driver would not. It answers the server's
 * MD5 password request with `password` (none: it sends nothing), and records the type of every
 * message received.
 */
const rawConnect = (embedded: { readonly port: number; readonly password: Redacted.Redacted<string> }, password = Redacted.value(embedded.password)) =>
  Effect.promise(() =>
    new Promise<{
      readonly send: (bytes: Uint8Array) => Promise<string>
      readonly socket: Net.Socket
      readonly received: () => string
      readonly closed: Promise<void>
    }>((resolve) => {
      const socket = Net.connect(embedded.port, "127.0.0.1")
      let pending: ((status: string) => void) | undefined
      let received = Buffer.alloc(0)
      let types = ""
      socket.on("data", (chunk) => {
        received = Buffer.concat([received, chunk])
        while (received.length >= 5 && received.length >= 1 + received.readInt32BE(1)) {
          const type = received[0]
          const message = received.subarray(0, 1 + received.readInt32BE(1))
          received = received.subarray(message.length)
          types += String.fromCharCode(type)
          if (type === 0x52 && message.readInt32BE(5) === 5 && password !== "") {
            const hashed = PgAuth.md5Password({ user: "postgres", password, salt: message.subarray(9, 13) })
            const body = Buffer.from(`${hashed._tag === "Success" ? hashed.success : ""}\0`)
            const reply = Buffer.alloc(5 + body.length)
            reply[0] = 0x70 // 'p'
            reply.writeInt32BE(4 + body.length, 1)
            body.copy(reply, 5)
            socket.write(reply)
          }
          // Resolve on ReadyForQuery ('Z', status).
          if (type === 0x5a) {
            pending?.(String.fromCharCode(message[5]))
            pending = undefined
          }
        }
      })
      const closed = new Promise<void>((done) => socket.on("close", () => done()))
      socket.on("error", () => undefined)
      const send = (bytes: Uint8Array) =>
        new Promise<string>((done) => {
          pending = done
          socket.write(bytes)
        })
      socket.on("connect", () => resolve({ send, socket, received: () => types, closed }))
    })
  )

const startupMessage = () => {
  const body = Buffer.from("user\0postgres\0database\0postgres\0\0")
  const message = Buffer.alloc(8 + body.length)
  message.writeInt32BE(message.length, 0)
  message.writeInt32BE(196608, 4)
  body.copy(message, 8)
  return message
}

const simpleQuery = (text: string) => {
  const body = Buffer.from(`${text}\0`)
  const message = Buffer.alloc(5 + body.length)
  message[0] = 0x51
  message.writeInt32BE(4 + body.length, 1)
  body.copy(message, 5)
  return message
}

const parseOnly = (text: string) => {
  const body = Buffer.from(`\0${text}\0\0\0`)
  const message = Buffer.alloc(5 + body.length)
  message[0] = 0x50
  message.writeInt32BE(4 + body.length, 1)
  body.copy(message, 5)
  return message
}

// One embedded server for the rest of the file.
const Embedded = Layer.effect(EmbeddedPostgres, makePgliteTestDatabase)
const Client = PgClient.layerFrom(Effect.gen(function*() {
  return yield* makeEmbeddedPgClient(yield* EmbeddedPostgres)
}))
const Shared = Client.pipe(Layer.provideMerge(Embedded))

layer(Shared, { excludeTestServices: true })("embedded PostgreSQL over the wire", (it) => {
  it.effect("serves queries on a loopback port", () =>
    Effect.gen(function*() {
      const embedded = yield* EmbeddedPostgres
      assert.strictEqual(embedded.host, "127.0.0.1")
      assert.isAbove(embedded.port, 0)
      assert.match(Redacted.value(embedded.password), /^[0-9a-f]{64}$/)
      assert.strictEqual(
        Redacted.value(embedded.url),
        `postgres://postgres:${Redacted.value(embedded.password)}@127.0.0.1:${embedded.port}/postgres`
      )
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ answer: number; version: string }>`SELECT 6 * 7 AS answer, version() AS version`
      assert.strictEqual(rows[0].answer, 42)
      assert.match(rows[0].version, /^PostgreSQL \d+/)
    }))

  it.effect("the port asks for the password: without it or with a wrong one a client is refused before it runs anything", () =>
    Effect.gen(function*() {
      const embedded = yield* EmbeddedPostgres
      const connect = (password: string | undefined) =>
        PgClient.make({
          host: embedded.host,
          port: embedded.port,
          username: "postgres",
          database: "postgres",
          maxConnections: 1,
          ...(password === undefined ? {} : { password: Redacted.make(password) })
        }).pipe(
          Effect.flatMap((sql) => sql<{ one: number }>`SELECT 1 AS one`),
          Effect.scoped,
          Effect.provide(Reactivity.layer)
        )
      const without = yield* Effect.flip(connect(undefined))
      assert.strictEqual(without.reason._tag, "AuthenticationError")
      const wrong = yield* Effect.flip(connect("wrong"))
      assert.strictEqual(wrong.reason._tag, "AuthenticationError")
      assert.strictEqual(String(wrong.reason.cause), `Error: password authentication failed for user "postgres"`)
      assert.deepStrictEqual(yield* connect(Redacted.value(embedded.password)), [{ one: 1 }])

      // A client that skips the password and sends a query gets an error and the door.
      const raw = yield* rawConnect(embedded, "")
      raw.socket.write(startupMessage())
      raw.socket.write(simpleQuery("CREATE TABLE intruder (v int)"))
      yield* Effect.promise(() => raw.closed)
      assert.strictEqual(raw.received(), "RE")
      const sql = yield* SqlClient.SqlClient
      assert.deepStrictEqual(yield* sql`SELECT to_regclass('intruder') AS t`, [{ t: null }])
    }))

  it.effect("a second open of the same directory fails fast with a clear message", () =>
    Effect.gen(function*() {
      const embedded = yield* EmbeddedPostgres
      const started = Date.now()
      const error = yield* Effect.flip(Effect.scoped(makeEmbeddedPostgres({ dataDir: embedded.dataDir })))
      assert.isBelow(Date.now() - started, 500)
      assert.strictEqual(error._tag, "DatabaseLockedError")
      assert.strictEqual(
        error.message,
        `The embedded database at ${embedded.dataDir} is in use by another Wasl process (pid ${process.pid}). Stop it first or set DATABASE_URL.`
      )
    }))

  it.effect("a second process opening the same directory fails fast with a clear message", () =>
    Effect.gen(function*() {
      const embedded = yield* EmbeddedPostgres
      const module = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../../src/db/embedded-postgres.ts")
      const script = `
        import { Effect } from "effect"
        import { makeEmbeddedPostgres } from ${JSON.stringify(module)}
        const outcome = await Effect.runPromise(Effect.scoped(makeEmbeddedPostgres({ dataDir: process.argv[1] })).pipe(
          Effect.match({ onSuccess: () => undefined, onFailure: (error) => error.message })
        ))
        if (outcome === undefined) { console.log("OPENED"); process.exit(0) }
        console.error(outcome)
        process.exit(1)
      `
      const child = spawnSync(process.execPath, ["--input-type=module", "-e", script, embedded.dataDir], {
        cwd: Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../.."),
        encoding: "utf8",
        timeout: 20_000
      })
      assert.strictEqual(child.status, 1, child.stdout + child.stderr)
      assert.strictEqual(
        child.stderr.trim(),
        `The embedded database at ${embedded.dataDir} is in use by another Wasl process (pid ${process.pid}). Stop it first or set DATABASE_URL.`
      )
    }))

  it.effect("types: int8 as number, timestamptz as an ISO string with microseconds", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{
        id: number
        count: number
        ts: string
        tss: ReadonlyArray<string>
        ids: ReadonlyArray<number>
        n: string
        d: string
      }>`SELECT
          9007199254740991::int8 AS id,
          (SELECT count(*) FROM generate_series(1, 3)) AS count,
          '2026-11-21 17:24:05.123456+00'::timestamptz AS ts,
          ARRAY['1999-12-31T23:59:59.000001Z'::timestamptz, '2026-01-02T03:04:05+02:00'::timestamptz] AS tss,
          ARRAY[1, 2]::int8[] AS ids,
          '1.50'::numeric AS n,
          '2026-11-21'::date AS d`
      assert.deepStrictEqual(row, {
        id: 9007199254740991,
        count: 3,
        ts: "2026-11-21T17:24:05.123456Z",
        tss: ["1999-12-31T23:59:59.000001Z", "2026-01-02T01:04:05.000000Z"],
        ids: [1, 2],
        n: "1.50",
        d: "2026-11-21"
      })
      // Parameters: strings bind untyped, numbers as int4/int8, Dates as timestamptz.
      const [echo] = yield* sql<{ ts: string; big: number; fromDate: string }>`SELECT
          ${"2026-11-21T17:24:05.123456Z"}::timestamptz AS ts,
          ${2 ** 40}::int8 + 1 AS big,
          ${new Date("2026-11-21T17:24:05.123Z")}::timestamptz AS "fromDate"`
      assert.deepStrictEqual(echo, { ts: "2026-11-21T17:24:05.123456Z", big: 2 ** 40 + 1, fromDate: "2026-11-21T17:24:05.123000Z" })
      const edges = yield* sql<{ t: string }>`SELECT t FROM unnest(ARRAY[
          '1969-12-31T23:59:59.999999Z', '1970-01-01T00:00:00Z', '1600-02-29T12:00:00.5Z',
          '2999-12-31T23:59:59.000001Z', 'infinity', '-infinity'
        ]::timestamptz[]) WITH ORDINALITY AS u(t, n) ORDER BY n`
      assert.deepStrictEqual(edges.map((r) => r.t), [
        "1969-12-31T23:59:59.999999Z",
        "1970-01-01T00:00:00.000000Z",
        "1600-02-29T12:00:00.500000Z",
        "2999-12-31T23:59:59.000001Z",
        "infinity",
        "-infinity"
      ])
      const tooBig = yield* Effect.flip(sql`SELECT 9007199254740993::int8 AS x`)
      assert.strictEqual(tooBig._tag, "SqlError")
    }))

  it.effect("a failed transaction rolls back; a committed one persists", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tx_test (id bigserial PRIMARY KEY, v int NOT NULL)`
      const failed = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO tx_test (v) VALUES (1)`
        const inside = yield* sql<{ c: number }>`SELECT count(*) AS c FROM tx_test`
        assert.strictEqual(inside[0].c, 1)
        return yield* Effect.fail("boom" as const)
      })).pipe(Effect.flip)
      assert.strictEqual(failed, "boom")
      assert.deepStrictEqual(yield* sql`SELECT count(*) AS c FROM tx_test`, [{ c: 0 }])

      yield* sql.withTransaction(sql`INSERT INTO tx_test (v) VALUES (2)`)
      assert.deepStrictEqual(yield* sql`SELECT v FROM tx_test`, [{ v: 2 }])

      // A SQL error inside the transaction rolls it back too.
      const sqlError = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO tx_test (v) VALUES (3)`
        yield* sql`INSERT INTO tx_test (v) VALUES (NULL)`
      })).pipe(Effect.flip)
      assert.strictEqual(sqlError._tag, "SqlError")
      assert.deepStrictEqual(yield* sql`SELECT v FROM tx_test ORDER BY v`, [{ v: 2 }])
    }))

  it.effect("two connections: one inside a transaction, the other waits and never sees uncommitted rows", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE conc_test (v int NOT NULL)`
      const inserted = yield* Deferred.make<void>()
      const tx = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO conc_test (v) VALUES (1)`
        yield* Deferred.succeed(inserted, undefined)
        yield* Effect.sleep(Duration.millis(300))
        yield* sql`INSERT INTO conc_test (v) VALUES (2)`
        return yield* Effect.fail("rollback" as const)
      })).pipe(Effect.flip, Effect.forkChild)
      yield* Deferred.await(inserted)
      // Another pooled connection (the transaction holds its own).
      const started = Date.now()
      const other = yield* sql<{ c: number; pid: number }>`SELECT count(*) AS c, pg_backend_pid() AS pid FROM conc_test`
      const waited = Date.now() - started
      assert.strictEqual(yield* Fiber.join(tx), "rollback")
      assert.strictEqual(other[0].c, 0)
      // The server runs only the transaction's connection until it ends.
      assert.isAtLeast(waited, 200)
      assert.deepStrictEqual(yield* sql`SELECT count(*) AS c FROM conc_test`, [{ c: 0 }])
    }))

  it.effect("concurrent transactions on several connections each commit or roll back whole", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE concurrent_tx (i int NOT NULL)`
      const outcomes = yield* Effect.forEach(
        Array.from({ length: 60 }, (_, i) => i),
        (i) =>
          sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO concurrent_tx VALUES (${i})`
            const [{ c }] = yield* sql<{ c: number }>`SELECT count(*) AS c FROM concurrent_tx WHERE i = ${i}`
            assert.strictEqual(c, 1)
            yield* sql`INSERT INTO concurrent_tx VALUES (${i})`
            if (i % 3 === 0) return yield* Effect.fail(i)
            return i
          })).pipe(Effect.match({ onFailure: () => "rolled back" as const, onSuccess: () => "committed" as const })),
        { concurrency: 10 }
      )
      assert.strictEqual(outcomes.filter((o) => o === "committed").length, 40)
      const rows = yield* sql<{ i: number; c: number }>`SELECT i, count(*) AS c FROM concurrent_tx GROUP BY i ORDER BY i`
      assert.deepStrictEqual(rows, Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 3 !== 0).map((i) => ({ i, c: 2 })))
    }))

  it.effect("many concurrent queries over several connections get their own results", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const results = yield* Effect.forEach(
        Array.from({ length: 300 }, (_, i) => i),
        (i): Effect.Effect<boolean, SqlError.SqlError> =>
          i % 10 === 0
            ? sql`SELECT 1 / ${i - i}::int AS x`.pipe(Effect.match({ onFailure: () => true, onSuccess: () => false }))
            : sql<{ x: number; y: string }>`SELECT ${i}::int AS x, ${"s" + i}::text AS y`.pipe(
              Effect.map((rows) => rows[0].x === i && rows[0].y === `s${i}`)
            ),
        { concurrency: 30 }
      )
      assert.isTrue(results.every(Boolean))
    }))

  it.effect("a connection that disconnects inside a transaction or mid-cycle is rolled back and releases the session", () =>
    Effect.gen(function*() {
      const embedded = yield* EmbeddedPostgres
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE abandoned (v int)`

      const inTx = yield* rawConnect(embedded)
      assert.strictEqual(yield* Effect.promise(() => inTx.send(startupMessage())), "I")
      assert.strictEqual(yield* Effect.promise(() => inTx.send(simpleQuery("BEGIN"))), "T")
      assert.strictEqual(yield* Effect.promise(() => inTx.send(simpleQuery("INSERT INTO abandoned VALUES (1)"))), "T")
      inTx.socket.destroy()

      const midCycle = yield* rawConnect(embedded)
      assert.strictEqual(yield* Effect.promise(() => midCycle.send(startupMessage())), "I")
      midCycle.socket.write(parseOnly("INSERT INTO abandoned VALUES (2)"))
      yield* Effect.sleep(Duration.millis(50))
      midCycle.socket.destroy()

      const rows = yield* sql`SELECT count(*) AS c FROM abandoned`.pipe(Effect.timeout(Duration.seconds(5)))
      assert.deepStrictEqual(rows, [{ c: 0 }])
      yield* sql.withTransaction(sql`INSERT INTO abandoned VALUES (3)`)
      assert.deepStrictEqual(yield* sql`SELECT v FROM abandoned`, [{ v: 3 }])
    }))

  it.effect("LISTEN/NOTIFY through PgClient.listen/notify (via the notification tap)", () =>
    Effect.gen(function*() {
      const pg = yield* PgClient.PgClient
      const sql = yield* SqlClient.SqlClient
      const queue = yield* pg.listen("wasl_wake")
      const second = yield* pg.listen("wasl_wake")
      yield* pg.notify("wasl_wake", "one")
      yield* sql`NOTIFY wasl_wake, 'two'`
      // Inside a transaction: delivered on commit only.
      yield* sql.withTransaction(sql`SELECT pg_notify('wasl_wake', 'committed')`)
      yield* sql.withTransaction(Effect.andThen(sql`SELECT pg_notify('wasl_wake', 'rolled back')`, Effect.fail("no")))
        .pipe(Effect.ignore)
      yield* sql`NOTIFY other_channel, 'not for us'`
      const take = Queue.take(queue).pipe(Effect.map((n) => n.payload), Effect.timeout(Duration.seconds(2)))
      assert.deepStrictEqual([yield* take, yield* take, yield* take], ["one", "two", "committed"])
      assert.isTrue(Option.isNone(yield* Queue.poll(queue)))
      assert.strictEqual((yield* Queue.take(second).pipe(Effect.timeout(Duration.seconds(2)))).channel, "wasl_wake")
    }))

  it.effect("LISTEN stops when the listener's scope closes", () =>
    Effect.gen(function*() {
      const pg = yield* PgClient.PgClient
      const sql = yield* SqlClient.SqlClient
      yield* Effect.scoped(pg.listen("short_lived"))
      const listening = yield* sql<{ c: string }>`SELECT pg_listening_channels() AS c`
      assert.notInclude(listening.map((r) => r.c), "short_lived")
    }))

  it.effect("a plain client's LISTEN on the port receives nothing (one backend: why PgClient.listen is replaced)", () =>
    Effect.gen(function*() {
      const embedded = yield* EmbeddedPostgres
      const raw = yield* PgClient.make({
        host: embedded.host,
        port: embedded.port,
        username: "postgres",
        database: "postgres",
        password: embedded.password,
        maxConnections: 3
      }).pipe(Effect.provide(Reactivity.layer))
      const queue = yield* raw.listen("raw_channel")
      yield* raw.notify("raw_channel", "lost")
      const got = yield* Queue.take(queue).pipe(Effect.timeout(Duration.millis(300)), Effect.option)
      assert.isTrue(Option.isNone(got))
    }))

  it.effect("a PgClient on the URL works like the tapped one for queries", () =>
    Effect.gen(function*() {
      const embedded = yield* EmbeddedPostgres
      const viaUrl = yield* PgClient.make({ url: embedded.url, maxConnections: 2 }).pipe(
        Effect.provide(Reactivity.layer)
      )
      assert.deepStrictEqual(yield* viaUrl`SELECT current_user AS u`, [{ u: "postgres" }])
    }))
})
