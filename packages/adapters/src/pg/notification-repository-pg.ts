import { type NotificationPreference, NotificationName, NotificationRepository } from "@wasl/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeRows } from "./rows.ts"

const PreferenceRow = Schema.Struct({
  name: NotificationName,
  stored: Schema.Boolean,
  popup: Schema.Boolean,
  browser: Schema.Boolean,
  email: Schema.Boolean,
  id: DbInt,
  user_id: DbInt,
  account_id: DbInt,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const decodePreferences = decodeRows(PreferenceRow)

/** Stored notification preferences and unread counts on PostgreSQL. */
export const NotificationRepositoryPg: Layer.Layer<NotificationRepository, never, SqlClient.SqlClient> = Layer.effect(
  NotificationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const listPreferences = (accountId: number, userId: number) =>
      sql`
        SELECT name, stored, popup, browser, email, id, user_id, account_id, created_at, updated_at
        FROM notification_preferences
        WHERE account_id = ${accountId} AND user_id = ${userId}
        ORDER BY id
      `.pipe(
        Effect.flatMap(decodePreferences),
        Effect.map((rows): ReadonlyArray<NotificationPreference> => rows),
        Effect.orDie
      )

    const unreadCount = (accountId: number, userId: number) =>
      sql<{ count: number }>`
        SELECT count(*)::int4 AS count FROM notifications
        WHERE account_id = ${accountId} AND user_id = ${userId} AND read_at IS NULL
      `.pipe(Effect.map((rows) => Number(rows[0]?.count ?? 0)), Effect.orDie)

    return NotificationRepository.of({ listPreferences, unreadCount })
  })
)
