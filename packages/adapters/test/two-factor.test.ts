/**
 * The two-factor ports' contract over every implementation: in memory, on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { MigrationsLive } from "../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { RepositoriesMemory } from "../src/memory/index.ts"
import { RepositoriesPg } from "../src/pg/index.ts"
import { twoFactorContract } from "../src/testing/index.ts"

const onDatabase = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  RepositoriesPg.pipe(Layer.provideMerge(MigrationsLive), Layer.provide(SecureRandom.layerWebCrypto), Layer.provide(database))

twoFactorContract("two-factor in memory", RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto)))

twoFactorContract("two-factor on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  twoFactorContract("two-factor on PostgreSQL", onDatabase(TestDatabase.postgres))
})
