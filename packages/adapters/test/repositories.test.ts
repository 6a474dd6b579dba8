/**
 * The repository contract over every implementation: in memory, on PGlite,
 * and on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { describe } from "@effect/vitest"
import { DateTime, Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { SqlClient } from "effect/sql"
import { MigrationsLive } from "../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { MemoryStore, type NotificationRow, type PreferenceRow, RepositoriesMemory } from "../src/memory/index.ts"
import { updateStore } from "../src/memory/store.ts"
import { RepositoriesPg } from "../src/pg/index.ts"
import { NotificationSeed, repositoriesContract } from "../src/testing/index.ts"

const NotificationSeedMemory = Layer.effect(
  NotificationSeed,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return NotificationSeed.of({
      preference: (row) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const preference: PreferenceRow = { ...row, id: state.sequences.preferences, createdAt: now, updatedAt: now }
            return [undefined, {
              ...state,
              sequences: { ...state.sequences, preferences: preference.id + 1 },
              preferences: [...state.preferences, preference]
            }] as const
          })),
      notification: ({ read, ...row }) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const notification: NotificationRow = {
              ...row,
              id: state.sequences.notifications,
              data: {},
              readAt: read ? now : null,
              createdAt: now
            }
            return [undefined, {
              ...state,
              sequences: { ...state.sequences, notifications: notification.id + 1 },
              notifications: [...state.notifications, notification]
            }] as const
          }))
    })
  })
)

const NotificationSeedPg = Layer.effect(
  NotificationSeed,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return NotificationSeed.of({
      preference: (row) =>
        Effect.flatMap(DateTime.now, (now) =>
          sql`
            INSERT INTO notification_preferences
              (account_id, user_id, name, stored, popup, browser, email, created_at, updated_at)
            VALUES (${row.accountId}, ${row.userId}, ${row.name}, ${row.stored}, ${row.popup}, ${row.browser},
                    ${row.email}, ${DateTime.toDateUtc(now)}, ${DateTime.toDateUtc(now)})
          `.pipe(Effect.asVoid, Effect.orDie)),
      notification: (row) =>
        Effect.flatMap(DateTime.now, (now) =>
          sql`
            INSERT INTO notifications (account_id, user_id, type, data, read_at, created_at)
            VALUES (${row.accountId}, ${row.userId}, ${row.type}, '{}'::jsonb,
                    ${row.read ? DateTime.toDateUtc(now) : null}, ${DateTime.toDateUtc(now)})
          `.pipe(Effect.asVoid, Effect.orDie))
    })
  })
)

const memory = Layer.mergeAll(RepositoriesMemory, NotificationSeedMemory.pipe(Layer.provide(RepositoriesMemory))).pipe(
  Layer.provide(SecureRandom.layerWebCrypto)
)

const onDatabase = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  Layer.mergeAll(RepositoriesPg, NotificationSeedPg).pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provide(database)
  )

repositoriesContract("repositories in memory", memory)

repositoriesContract("repositories on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  repositoriesContract("repositories on PostgreSQL", onDatabase(TestDatabase.postgres))
})
