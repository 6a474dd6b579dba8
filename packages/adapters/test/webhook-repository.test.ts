/**
 * The WebhookRepository contract over every implementation: in memory, on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { webhookRepositoryContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

webhookRepositoryContract("webhooks in memory", repositoriesInMemory)

webhookRepositoryContract("webhooks on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  webhookRepositoryContract("webhooks on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
