/**
 * The messaging, OTP, inbound-store and campaign contracts over every implementation: in memory, on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import type { PgClient } from "@effect/sql-pg"
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { MigrationsLive } from "../../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../../src/db/test-database.ts"
import { RepositoriesMemory } from "../../src/memory/index.ts"
import { RepositoriesPg } from "../../src/pg/index.ts"
import {
  campaignRepositoryContract,
  inboundStoresContract,
  messageAllowanceLedgerContract,
  messagingRepositoriesContract,
  otpLedgerContract,
  otpReservationContract
} from "../../src/testing/index.ts"

const memory = () => RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto))

const onDatabase = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  RepositoriesPg.pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provideMerge(database)
  )

const variants = [
  { name: "in memory", enabled: true, layer: memory },
  { name: "on PGlite", enabled: true, layer: () => onDatabase(TestDatabase.pglite) },
  { name: "on PostgreSQL", enabled: postgresTestEnabled(), layer: () => onDatabase(TestDatabase.postgres) }
]

for (const variant of variants) {
  describe.runIf(variant.enabled)(variant.name, () => {
    messagingRepositoriesContract(`messaging repositories ${variant.name}`, variant.layer())
    otpLedgerContract(`OTP ledger ${variant.name}`, variant.layer())
    otpReservationContract(`OTP reservations ${variant.name}`, variant.layer())
    messageAllowanceLedgerContract(`message allowance ${variant.name}`, variant.layer())
    inboundStoresContract(`inbound stores ${variant.name}`, variant.layer())
    campaignRepositoryContract(`campaigns ${variant.name}`, variant.layer())
  })
}
