/**
 * The DeliveryBacklog contract over every implementation: in memory, on PGlite, and on PostgreSQL
 * when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { deliveryBacklogContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

deliveryBacklogContract("delivery backlog in memory", repositoriesInMemory)

deliveryBacklogContract("delivery backlog on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  deliveryBacklogContract("delivery backlog on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
