/**
 * The member, team and invitation ports' contract over every implementation: in memory, on
 * PGlite, and on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { membersContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

membersContract("members in memory", repositoriesInMemory)

membersContract("members on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  membersContract("members on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
