/**
 * The property history repository contract over every implementation: in memory, on PGlite, and
 * on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { propertyHistoryRepositoryContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

propertyHistoryRepositoryContract("property history repository in memory", repositoriesInMemory)

propertyHistoryRepositoryContract("property history repository on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  propertyHistoryRepositoryContract("property history repository on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
