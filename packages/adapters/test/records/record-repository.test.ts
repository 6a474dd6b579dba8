/**
 * The record, list, note and property value contracts over every implementation: in memory, on
 * PGlite, and on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { MigrationsLive } from "../../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../../src/db/test-database.ts"
import { RepositoriesMemory } from "../../src/memory/index.ts"
import { RepositoriesPg } from "../../src/pg/index.ts"
import {
  noteRepositoryContract,
  type NoteRepositoryContractServices,
  propertyValueStoreContract,
  type PropertyValueStoreContractServices,
  recordListContract,
  recordRepositoryContract,
  type RecordRepositoryContractServices
} from "../../src/testing/index.ts"

const memory = RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto))

const onDatabase = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  RepositoriesPg.pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provide(database)
  )

type Services = RecordRepositoryContractServices | NoteRepositoryContractServices | PropertyValueStoreContractServices

const suites = <E>(name: string, implementation: Layer.Layer<Services, E>) => {
  recordRepositoryContract(`records ${name}`, implementation)
  recordListContract(`record lists ${name}`, implementation)
  noteRepositoryContract(`notes ${name}`, implementation)
  propertyValueStoreContract(`property values ${name}`, implementation)
}

suites("in memory", memory)

suites("on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  suites("on PostgreSQL", onDatabase(TestDatabase.postgres))
})
