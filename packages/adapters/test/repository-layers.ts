/** The repositories the contract suites run over: in memory, and on a migrated database. */
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { MigrationsLive } from "../src/db/database.ts"
import { RepositoriesMemory } from "../src/memory/index.ts"
import { RepositoriesPg } from "../src/pg/index.ts"

/** Every port over a fresh memory store (each build is a new, empty database). */
export const repositoriesInMemory = RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto))

/** Every port on `database`, migrated first. */
export const repositoriesOn = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  RepositoriesPg.pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provide(database)
  )
