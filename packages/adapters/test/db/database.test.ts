import { assert, describe, it, layer } from "@effect/vitest"
import { PgClient, PgTypes } from "@effect/sql-pg"
import { Duration, Effect, Layer, Queue, Result } from "effect"
import { SqlClient } from "effect/sql"
import fc from "fast-check"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { DatabaseLive, migrationsTable, MigrationsLive, pgTypes, runMigrations } from "../../src/db/database.ts"
import { dataDirLockPath } from "../../src/db/data-dir-lock.ts"
import { makePgliteTestDatabase, postgresTestEnabled, testPostgresUrl, TestDatabase } from "../../src/db/test-database.ts"

// The same suite on both databases: PGlite always, PostgreSQL when TEST_DATABASE_URL is set.
describe.each(TestDatabase.variants)("on $name", ({ enabled, layer: database, name }) => {
  describe.runIf(enabled)("database", () => {
    layer(MigrationsLive.pipe(Layer.provideMerge(database)), { excludeTestServices: true })((it) => {
      it.effect("migrations ran once and pg_trgm is there", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const applied = yield* sql<{ migration_id: number; name: string }>`
            SELECT migration_id, name FROM ${sql(migrationsTable)} ORDER BY migration_id`
          assert.deepStrictEqual(applied[0], { migration_id: 1, name: "init" })
          const [row] = yield* sql<{ s: number }>`SELECT similarity('contact', 'contacts') AS s`
          assert.isAbove(row.s, 0.5)
        }))

      it.effect("running the migrations again applies nothing (idempotent), also concurrently", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const before = yield* sql`SELECT * FROM ${sql(migrationsTable)}`
          assert.deepStrictEqual(yield* runMigrations, [])
          const concurrent = yield* Effect.all([runMigrations, runMigrations], { concurrency: 2 })
          assert.deepStrictEqual(concurrent, [[], []])
          assert.deepStrictEqual(yield* sql`SELECT * FROM ${sql(migrationsTable)}`, before)
        }))

      it.effect("a fresh database per layer", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [{ db }] = yield* sql<{ db: string }>`SELECT current_database() AS db`
          if (name === "postgres") assert.match(db, /^wasl_test_[0-9a-f]{12}$/)
          else assert.strictEqual(db, "postgres")
        }))

      it.effect("types decode the same way", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ id: number; ts: string }>`
            SELECT 123::bigint AS id, '2026-11-21T17:24:05.123456Z'::timestamptz AS ts`
          assert.deepStrictEqual(row, { id: 123, ts: "2026-11-21T17:24:05.123456Z" })
        }))

      it.effect("timestamptz reads as its ISO text with microseconds, in every year 0001–9999", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          // PostgreSQL parses the text, the codec writes the micros it stores back: far from 2000
          // (past ±285 years, where the micros leave the safe integers) and before 1970 too.
          const iso = (ms: number, micros: number) =>
            `${new Date(ms).toISOString().slice(0, -1)}${String(micros).padStart(3, "0")}Z`
          const first = Date.parse("0001-01-01T00:00:00Z")
          const last = Date.parse("9999-12-31T23:59:59.999Z")
          const texts = [
            ...fc.sample(fc.tuple(fc.integer({ min: first, max: last }), fc.integer({ min: 0, max: 999 })), 1000)
              .map(([ms, micros]) => iso(ms, micros)),
            "0001-01-01T00:00:00.000000Z",
            "9999-12-31T23:59:59.999999Z",
            "1969-12-31T23:59:59.999999Z",
            "1970-01-01T00:00:00.000000Z",
            "2000-01-01T00:00:00.000001Z",
            "1999-12-31T23:59:59.999999Z",
            "2000-02-29T12:00:00.000500Z",
            "1900-02-28T23:59:59.999999Z",
            "1900-03-01T00:00:00.000000Z",
            "2024-02-29T00:00:00.000000Z",
            "2026-12-31T23:59:59.999999Z"
          ]
          const rows = yield* sql<{ t: string; ts: string }>`
            SELECT t, t::timestamptz AS ts FROM unnest(string_to_array(${texts.join(",")}, ',')) AS t`
          assert.strictEqual(rows.length, texts.length)
          for (const row of rows) assert.strictEqual(row.ts, row.t)
        }))

      it.effect("withTransaction rolls back", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE rollback_test (v int)`
          yield* sql.withTransaction(Effect.andThen(sql`INSERT INTO rollback_test VALUES (1)`, Effect.fail("no")))
            .pipe(Effect.ignore)
          assert.deepStrictEqual(yield* sql`SELECT count(*) AS c FROM rollback_test`, [{ c: 0 }])
        }))

      it.effect("LISTEN/NOTIFY through PgClient", () =>
        Effect.gen(function*() {
          const pg = yield* PgClient.PgClient
          const sql = yield* SqlClient.SqlClient
          const queue = yield* pg.listen("deliveries")
          yield* sql.withTransaction(sql`SELECT pg_notify('deliveries', '42')`)
          yield* pg.notify("deliveries", "43")
          const take = Queue.take(queue).pipe(Effect.map((n) => n.payload), Effect.timeout(Duration.seconds(2)))
          assert.deepStrictEqual([yield* take, yield* take], ["42", "43"])
        }))
    })
  })
})

describe.runIf(postgresTestEnabled())("TestDatabase.postgres", () => {
  it.live("creates wasl_test_<random> and drops it on release", () =>
    Effect.gen(function*() {
      const name = yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(TestDatabase.postgres)
        const sql = yield* Effect.provide(Effect.service(SqlClient.SqlClient), context)
        const [{ db }] = yield* sql<{ db: string }>`SELECT current_database() AS db`
        return db
      }))
      assert.match(name, /^wasl_test_/)
      const exists = yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(DatabaseLive({ databaseUrl: testPostgresUrl()!, dataDir: "unused" }))
        const sql = yield* Effect.provide(Effect.service(SqlClient.SqlClient), context)
        return yield* sql`SELECT 1 FROM pg_database WHERE datname = ${name}`
      }))
      assert.strictEqual(exists.length, 0)
    }))
})

describe("pgTypes: a timestamptz parameter given as text", () => {
  const roundTrip = (text: string) =>
    PgTypes.encode(text, PgTypes.OID.timestamptz, pgTypes).pipe(
      Result.flatMap((bytes) => PgTypes.decode(bytes, PgTypes.OID.timestamptz, 1, pgTypes))
    )

  it("is that instant in every year 0001–9999, the years below 100 too (not 19xx, as Date.UTC reads them)", () => {
    for (const text of ["0001-01-01T00:00:00.000000Z", "0050-06-15T12:30:45.123456Z", "0099-12-31T23:59:59.999999Z", "2026-11-21T17:24:05.123456Z", "9999-12-31T23:59:59.999999Z"]) {
      assert.deepStrictEqual(roundTrip(text), Result.succeed(text))
    }
    assert.deepStrictEqual(roundTrip("0050-06-15T14:30:45.5+02:00"), Result.succeed("0050-06-15T12:30:45.500000Z"))
  })

  it("is refused when it names no real instant, not rolled over", () => {
    for (const text of ["2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T23:60:00Z"]) {
      assert.isTrue(Result.isFailure(roundTrip(text)), text)
    }
  })
})

describe("TestDatabase.pglite", () => {
  it.live("removes its temporary directory on release", () =>
    Effect.gen(function*() {
      // Compare against this database's own directory: other test files create theirs concurrently.
      const dataDir = yield* Effect.scoped(Effect.gen(function*() {
        const embedded = yield* makePgliteTestDatabase
        assert.isTrue(Fs.existsSync(embedded.dataDir))
        return embedded.dataDir
      }))
      assert.isFalse(Fs.existsSync(dataDir))
    }))
})

describe("DatabaseLive", () => {
  it.live("without a URL: the embedded database under dataDir, locked while open, migrated", () =>
    Effect.gen(function*() {
      const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-data-"))
      const Live = MigrationsLive.pipe(Layer.provideMerge(DatabaseLive({ dataDir })))
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(Live)
        assert.isTrue(Fs.existsSync(dataDirLockPath(dataDir)))
        assert.isTrue(Fs.existsSync(Path.join(dataDir, "pgdata", "PG_VERSION")))
        const sql = yield* Effect.provide(Effect.service(SqlClient.SqlClient), context)
        yield* sql`CREATE TABLE kept (v text)`
        yield* sql`INSERT INTO kept VALUES ('survives a restart')`
        const error = yield* Effect.flip(Effect.scoped(Layer.build(DatabaseLive({ dataDir }))))
        assert.strictEqual(error._tag, "DatabaseLockedError")
      }))
      assert.isFalse(Fs.existsSync(dataDirLockPath(dataDir)))
      // Reopen: data persisted, migrations not re-applied.
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(DatabaseLive({ dataDir }))
        const sql = yield* Effect.provide(Effect.service(SqlClient.SqlClient), context)
        assert.deepStrictEqual(yield* sql`SELECT v FROM kept`, [{ v: "survives a restart" }])
        assert.deepStrictEqual(yield* runMigrations.pipe(Effect.provide(context)), [])
      }))
      Fs.rmSync(dataDir, { recursive: true, force: true })
    }), 60_000)

  it.live.runIf(postgresTestEnabled())("with a URL: that server", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(DatabaseLive({ databaseUrl: testPostgresUrl()!, dataDir: "unused" }))
      const sql = yield* Effect.provide(Effect.service(SqlClient.SqlClient), context)
      const [{ version }] = yield* sql<{ version: string }>`SELECT version() AS version`
      assert.match(version, /^PostgreSQL/)
      assert.isFalse(Fs.existsSync("unused"))
    }))
})
