/**
 * The Retention contract over every implementation: in memory, on PGlite, and on PostgreSQL when
 * TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { retentionContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

retentionContract("retention in memory", repositoriesInMemory)

retentionContract("retention on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  retentionContract("retention on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
