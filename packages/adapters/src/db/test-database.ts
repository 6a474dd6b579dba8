/**
 * Fresh databases for tests: each built layer is a database of its own, dropped when released.
 *
 * - `TestDatabase.postgres`: on the server of `TEST_DATABASE_URL` (falling back to `DATABASE_URL`),
 *   creates `wasl_test_<random>` through a maintenance connection on that URL, connects to it, and
 *   runs `DROP DATABASE ... WITH (FORCE)` on release (PostgreSQL 13+).
 * - `TestDatabase.pglite`: the embedded server on a temporary directory, removed on release. It
 *   starts from a cached `initdb` template (`<tmpdir>/wasl-pglite-template-<version>.tar.gz`, made
 *   once per machine), so a start costs ~0.5 s instead of ~2.5 s.
 * - `TestDatabase.layer`: `postgres` when a URL is set, else `pglite`.
 *
 * Run a suite on both databases:
 *
 * ```ts
 * describe.each(TestDatabase.variants)("contacts on $name", ({ enabled, layer: database }) => {
 *   describe.runIf(enabled)("", () => {
 *     layer(MigrationsLive.pipe(Layer.provideMerge(database)), { excludeTestServices: true })((it) => {
 *       it.effect("...", () => ...)
 *     })
 *   })
 * })
 * ```
 *
 * None of the layers run migrations: provide `MigrationsLive` on top (as above).
 *
 * @module
 */
import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { makeEmbeddedPgClient, pgClientOptions } from "./database.ts"
import { type DatabaseLockedError, type EmbeddedPostgresError, makeEmbeddedPostgres } from "./embedded-postgres.ts"

/** The PostgreSQL server tests run on: `TEST_DATABASE_URL`, else `DATABASE_URL`, else none. */
export const testPostgresUrl = (): string | undefined =>
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined

/** Whether the PostgreSQL variant can run (a URL is set). Use with `describe.runIf`. */
export const postgresTestEnabled = (): boolean => testPostgresUrl() !== undefined

type TestDatabaseLayer = Layer.Layer<
  PgClient.PgClient | SqlClient,
  SqlError | DatabaseLockedError | EmbeddedPostgresError
>

// -----------------------------------------------------------------------------
// PostgreSQL
// -----------------------------------------------------------------------------

const withMaintenanceClient = <A>(url: string, f: (sql: PgClient.PgClient) => Effect.Effect<A, SqlError>) =>
  PgClient.make({ ...pgClientOptions, url: Redacted.make(url), maxConnections: 1 }).pipe(
    Effect.flatMap(f),
    Effect.scoped,
    Effect.provide(Reactivity.layer)
  )

/** Creates `wasl_test_<random>` on the server of `url` for the scope; yields its URL. */
export const makePostgresTestDatabase = Effect.fnUntraced(function*(url: string) {
  const name = `wasl_test_${randomBytes(6).toString("hex")}`
  yield* Effect.acquireRelease(
    withMaintenanceClient(url, (sql) => sql`CREATE DATABASE ${sql(name)}`.raw),
    () =>
      withMaintenanceClient(url, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`.raw).pipe(
        Effect.catchCause((cause) => Effect.logWarning(`Could not drop test database ${name}`, cause))
      )
  )
  const databaseUrl = new URL(url)
  databaseUrl.pathname = `/${name}`
  return { name, url: databaseUrl.toString() }
})

const postgresLayer = (url: string | undefined): TestDatabaseLayer =>
  url === undefined
    ? Layer.effectContext<PgClient.PgClient | SqlClient, never, never>(
      Effect.die(new Error("TestDatabase.postgres needs TEST_DATABASE_URL (or DATABASE_URL)"))
    )
    : PgClient.layerFrom(
      Effect.flatMap(makePostgresTestDatabase(url), (database) =>
        PgClient.make({ ...pgClientOptions, url: Redacted.make(database.url) }))
    )

// -----------------------------------------------------------------------------
// PGlite
// -----------------------------------------------------------------------------

const pgliteVersion = (): string => {
  try {
    const require = createRequire(import.meta.url)
    const entry = require.resolve("@electric-sql/pglite")
    const pkg = JSON.parse(Fs.readFileSync(Path.join(Path.dirname(entry), "..", "package.json"), "utf8"))
    return String(pkg.version)
  } catch {
    return "unknown"
  }
}

const templatePath = (): string => Path.join(Os.tmpdir(), `wasl-pglite-template-${pgliteVersion()}.tar.gz`)

/** The cached tarball of a freshly `initdb`ed PGDATA, made on first use (atomically). */
const loadTemplate = async (): Promise<Blob> => {
  const file = templatePath()
  if (!Fs.existsSync(file)) {
    const db = await PGlite.create({ dataDir: "memory://" })
    try {
      const dump = await db.dumpDataDir("gzip")
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`
      Fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()))
      Fs.renameSync(tmp, file)
    } finally {
      await db.close()
    }
  }
  return new Blob([Fs.readFileSync(file)])
}

const makeTempDir = Effect.acquireRelease(
  Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-test-db-"))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

/** A fresh embedded server on a temporary directory for the scope. */
export const makePgliteTestDatabase = Effect.gen(function*() {
  const dir = yield* makeTempDir
  const template = yield* Effect.promise(() => loadTemplate().catch(() => undefined))
  return yield* makeEmbeddedPostgres({ dataDir: dir, initialDataDir: template }).pipe(
    Effect.catchTag("EmbeddedPostgresError", (error) => {
      // A bad template: forget it and initdb from scratch.
      if (template === undefined) return Effect.fail(error)
      Fs.rmSync(templatePath(), { force: true })
      return Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })).pipe(
        Effect.andThen(makeEmbeddedPostgres({ dataDir: dir }))
      )
    })
  )
})

const pgliteLayer: TestDatabaseLayer = PgClient.layerFrom(
  Effect.flatMap(makePgliteTestDatabase, (embedded) => makeEmbeddedPgClient(embedded))
)

// -----------------------------------------------------------------------------
// API
// -----------------------------------------------------------------------------

export interface TestDatabaseVariant {
  readonly name: "pglite" | "postgres"
  /** Whether this variant can run here (PGlite always; PostgreSQL when a URL is set). */
  readonly enabled: boolean
  readonly layer: TestDatabaseLayer
}

export const TestDatabase: {
  /** A fresh embedded PGlite database (temporary directory). */
  readonly pglite: TestDatabaseLayer
  /** A fresh database on `TEST_DATABASE_URL`/`DATABASE_URL`; dies when neither is set. */
  readonly postgres: TestDatabaseLayer
  /** `postgres` when a URL is set, else `pglite`. */
  readonly layer: TestDatabaseLayer
  /** Both variants, for `describe.each` + `describe.runIf(enabled)`. */
  readonly variants: ReadonlyArray<TestDatabaseVariant>
} = {
  pglite: pgliteLayer,
  // The environment is read when a layer is asked for, not when this module loads.
  get postgres() {
    return postgresLayer(testPostgresUrl())
  },
  get layer() {
    return postgresTestEnabled() ? postgresLayer(testPostgresUrl()) : pgliteLayer
  },
  get variants() {
    return [
      { name: "pglite", enabled: true, layer: pgliteLayer },
      { name: "postgres", enabled: postgresTestEnabled(), layer: postgresLayer(testPostgresUrl()) }
    ] as const
  }
}
