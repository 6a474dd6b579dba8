/**
 * The pipeline repository contract over every implementation: in memory, on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { pipelineRepositoryContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

pipelineRepositoryContract("pipeline repository in memory", repositoriesInMemory)

pipelineRepositoryContract("pipeline repository on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  pipelineRepositoryContract("pipeline repository on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
