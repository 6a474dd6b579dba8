/**
 * The outbox contract over every implementation: in memory, on PGlite, and on PostgreSQL when
 * TEST_DATABASE_URL (or DATABASE_URL) is set; NOTIFY on the two databases.
 */
import { describe } from "@effect/vitest"
import type { PgClient } from "@effect/sql-pg"
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { MigrationsLive } from "../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { RepositoriesMemory } from "../src/memory/index.ts"
import { RepositoriesPg } from "../src/pg/index.ts"
import { outboxContract, outboxNotifyContract } from "../src/testing/index.ts"

const memory = RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto))

const onDatabase = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  RepositoriesPg.pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provideMerge(database)
  )

outboxContract("outbox in memory", memory)

outboxContract("outbox on PGlite", onDatabase(TestDatabase.pglite))
outboxNotifyContract("outbox NOTIFY on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  outboxContract("outbox on PostgreSQL", onDatabase(TestDatabase.postgres))
  outboxNotifyContract("outbox NOTIFY on PostgreSQL", onDatabase(TestDatabase.postgres))
})
