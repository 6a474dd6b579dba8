/**
 * The ExportRepository contract (and the records scan exports read through) over every
 * implementation: in memory, on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { exportRepositoryContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

exportRepositoryContract("exports in memory", repositoriesInMemory)

exportRepositoryContract("exports on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  exportRepositoryContract("exports on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
