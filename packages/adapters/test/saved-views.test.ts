/**
 * The saved view repository contract over every implementation: in memory, on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { savedViewRepositoryContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

savedViewRepositoryContract("saved view repository in memory", repositoriesInMemory)

savedViewRepositoryContract("saved view repository on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  savedViewRepositoryContract("saved view repository on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
