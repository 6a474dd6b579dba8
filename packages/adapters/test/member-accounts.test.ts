/**
 * The contract of several accounts, their settings and e-mail links over every implementation: in
 * memory, on PGlite, and on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { memberAccountsContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

memberAccountsContract("several accounts in memory", repositoriesInMemory)

memberAccountsContract("several accounts on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  memberAccountsContract("several accounts on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
