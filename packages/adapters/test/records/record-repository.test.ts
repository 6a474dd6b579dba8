/**
 * The record, list, note and property value contracts over every implementation: in memory, on
 * PGlite, and on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import type { Layer } from "effect"
import { postgresTestEnabled, TestDatabase } from "../../src/db/test-database.ts"
import {
  noteRepositoryContract,
  type NoteRepositoryContractServices,
  propertyValueStoreContract,
  type PropertyValueStoreContractServices,
  recordListContract,
  recordRepositoryContract,
  type RecordRepositoryContractServices
} from "../../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "../repository-layers.ts"

type Services = RecordRepositoryContractServices | NoteRepositoryContractServices | PropertyValueStoreContractServices

const suites = <E>(name: string, implementation: Layer.Layer<Services, E>) => {
  recordRepositoryContract(`records ${name}`, implementation)
  recordListContract(`record lists ${name}`, implementation)
  noteRepositoryContract(`notes ${name}`, implementation)
  propertyValueStoreContract(`property values ${name}`, implementation)
}

suites("in memory", repositoriesInMemory)

suites("on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  suites("on PostgreSQL", repositoriesOn(TestDatabase.postgres))
})
