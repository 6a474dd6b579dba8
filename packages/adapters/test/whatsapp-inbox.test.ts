/**
 * The WhatsApp inbox contract over every implementation: in memory, on PGlite, and on PostgreSQL
 * when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import type { PgClient } from "@effect/sql-pg"
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { MigrationsLive } from "../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { RepositoriesMemory } from "../src/memory/index.ts"
import { QueueSignalsPg, RepositoriesPg } from "../src/pg/index.ts"
import { whatsAppInboxContract } from "../src/testing/index.ts"

const memory = RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto))

const onDatabase = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  Layer.mergeAll(RepositoriesPg, QueueSignalsPg).pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provide(database)
  )

whatsAppInboxContract("WhatsApp inbox in memory", memory)

whatsAppInboxContract("WhatsApp inbox on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  whatsAppInboxContract("WhatsApp inbox on PostgreSQL", onDatabase(TestDatabase.postgres))
})
