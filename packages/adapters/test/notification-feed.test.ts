/**
 * The NotificationFeed contract: `NotificationFeedMemory` with the memory repositories, and
 * `NotificationFeedPg` (LISTEN wasl_notifications) with the PostgreSQL ones on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { assert, describe, layer } from "@effect/vitest"
import type { PgClient } from "@effect/sql-pg"
import { NotificationFeed } from "@wasl/core/Notifications"
import { Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { SqlClient } from "effect/sql"
import { MigrationsLive } from "../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { RepositoriesMemory } from "../src/memory/index.ts"
import { NotificationFeedPg, RepositoriesPg } from "../src/pg/index.ts"
import { notificationFeedContract } from "../src/testing/index.ts"

const memory = RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto))

const onDatabase = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  Layer.mergeAll(RepositoriesPg, NotificationFeedPg).pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provideMerge(database)
  )

notificationFeedContract("notification feed in memory", memory)

notificationFeedContract("notification feed on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  notificationFeedContract("notification feed on PostgreSQL", onDatabase(TestDatabase.postgres))

  // A process that serves no stream (a worker) holds no listening connection.
  layer(onDatabase(TestDatabase.postgres))("NotificationFeedPg on PostgreSQL", (it) => {
    it.effect("listens only once a stream subscribes", () =>
      Effect.gen(function*() {
        // Time for a listener started with the layer to show; there must be none.
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 500)))
        const sql = yield* SqlClient.SqlClient
        const listeners = sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE 'LISTEN%'
        `.pipe(Effect.map((rows) => rows[0]!.n))
        assert.strictEqual(yield* listeners, 0)
        const feed = yield* NotificationFeed
        yield* Effect.scoped(feed.subscribe(1, 1))
        assert.strictEqual(yield* listeners, 1)
        yield* Effect.scoped(feed.subscribe(1, 2))
        assert.strictEqual(yield* listeners, 1, "one listener per process, whatever the number of streams")
      }))
  })
})
