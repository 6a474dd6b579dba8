/**
 * Fresh databases for tests: each built layer is a database of its own, dropped when released.
 *
 * - `TestDatabase.postgres`: on the server of `TEST_DATABASE_URL` (falling back to `DATABASE_URL`),
 *   creates `wasl_test_<random>` through a maintenance connection on that URL, connects to it, and
 *   runs `DROP DATABASE ... WITH (FORCE)` on release (PostgreSQL 13+).
 * - `TestDatabase.pglite`: the embedded server on a temporary directory, removed on release. It
 *   starts from a cached `initdb` template (`<tmpdir>/wasl-pglite-template-<version>.tar.gz`, made
 *   once per machine), so a start costs about 1.5 s instead of about 4 s.
 * - `TestDatabase.layer`: `postgres` when a URL is set, else `pglite`.
 *
 * None of the layers run migrations: provide `MigrationsLive` on top (see the example on
 * `TestDatabase`).
 *
 * @module
 */
import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted, type Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { makeEmbeddedPgClient, pgClientOptions } from "./database.ts"
import { type EmbeddedPostgresService, makeEmbeddedPostgres } from "./embedded-postgres.ts"
import type { DatabaseLockedError, EmbeddedPostgresError } from "./embedded-postgres-errors.ts"

/** The PostgreSQL server tests run on: `TEST_DATABASE_URL`, else `DATABASE_URL`, else none. */
export const testPostgresUrl = (): string | undefined =>
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined

/** Whether the PostgreSQL variant can run (a URL is set). Use with `describe.runIf`. */
export const postgresTestEnabled = (): boolean => testPostgresUrl() !== undefined

/**
 * A fresh test database as a layer: `PgClient` and `SqlClient` on a database of its own, dropped
 * when the layer is released. Not migrated: provide `MigrationsLive` on top.
 */
export type TestDatabaseLayer = Layer.Layer<
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

/**
 * Creates `wasl_test_<random>` on the server of `url` for the scope (dropped when it closes);
 * yields its name and URL. The building block of `TestDatabase.postgres`.
 */
export const makePostgresTestDatabase: (
  url: string
) => Effect.Effect<{ readonly name: string; readonly url: string }, SqlError, Scope.Scope> = Effect.fnUntraced(function*(
  url: string
) {
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

/**
 * A fresh embedded server on a temporary directory for the scope (removed when it closes). The
 * building block of `TestDatabase.pglite`.
 */
export const makePgliteTestDatabase: Effect.Effect<
  EmbeddedPostgresService,
  DatabaseLockedError | EmbeddedPostgresError,
  Scope.Scope
> = Effect.gen(function*() {
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

/** One of the databases a suite can run on, for `describe.each(TestDatabase.variants)`. */
export interface TestDatabaseVariant {
  /** `pglite` (embedded) or `postgres` (the server of `TEST_DATABASE_URL`). */
  readonly name: "pglite" | "postgres"
  /** Whether this variant can run here (PGlite always; PostgreSQL when a URL is set). */
  readonly enabled: boolean
  /** A fresh database of this variant. */
  readonly layer: TestDatabaseLayer
}

/**
 * Fresh databases for tests: each build of one of these layers is a database of its own (embedded
 * PGlite in a temporary directory, or a new database on the PostgreSQL server of
 * `TEST_DATABASE_URL`, else `DATABASE_URL`), dropped when the layer is released. None is migrated:
 * provide `MigrationsLive` on top.
 *
 * @example Run a suite on both databases (PostgreSQL only when a URL is set)
 * ```ts
 * import { describe, layer } from "@effect/vitest"
 * import { Effect, Layer } from "effect"
 * import { SqlClient } from "effect/sql"
 * import { MigrationsLive } from "@wasl/adapters"
 * import { TestDatabase } from "@wasl/adapters/testing"
 *
 * describe.each(TestDatabase.variants)("contacts on $name", ({ enabled, layer: database }) => {
 *   describe.runIf(enabled)("", () => {
 *     layer(MigrationsLive.pipe(Layer.provideMerge(database)), { excludeTestServices: true })((it) => {
 *       it.effect("finds no contact in a fresh database", () =>
 *         Effect.gen(function*() {
 *           const sql = yield* SqlClient.SqlClient
 *           const rows = yield* sql`SELECT count(*) AS n FROM contacts`
 *           console.log(rows)
 *         }))
 *     })
 *   })
 * })
 * ```
 */
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
