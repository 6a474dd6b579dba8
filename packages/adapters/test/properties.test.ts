/**
 * The property and property-group repository contract over every implementation: in memory, on
 * PGlite, and on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { propertiesContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

propertiesContract("property repositories in memory", repositoriesInMemory)

propertiesContract("property repositories on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  propertiesContract("property repositories on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
