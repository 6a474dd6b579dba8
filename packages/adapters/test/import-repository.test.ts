/**
 * The ImportRepository contract: in memory, on PGlite, and on PostgreSQL when TEST_DATABASE_URL
 * (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { importRepositoryContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

importRepositoryContract("imports in memory", repositoriesInMemory)

importRepositoryContract("imports on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  importRepositoryContract("imports on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
