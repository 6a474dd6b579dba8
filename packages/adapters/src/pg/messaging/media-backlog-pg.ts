/**
 * The media backlog on PostgreSQL: inbound messages with a pending attachment, read through the
 * partial index `messages_pending_media_idx` (migration 0026), which holds only those, so the
 * worker's poll costs nothing once every file is fetched.
 */
import { MediaBacklog } from "@wasl/core/Messaging"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeMessages, MESSAGE_COLUMNS } from "./message-row.ts"

/** `MediaBacklog` over the `messages` table. */
export const MediaBacklogPg: Layer.Layer<MediaBacklog, never, SqlClient.SqlClient> = Layer.effect(
  MediaBacklog,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(MESSAGE_COLUMNS)
    return MediaBacklog.of({
      pending: (limit, skip) =>
        sql`
          SELECT ${columns} FROM messages m
          WHERE m.direction = 'inbound' AND m.attachments @> '[{"state": "pending"}]'::jsonb
            AND NOT (m.id = ANY(${[...skip]}::text[]))
          ORDER BY m.created_at, m.account_id, m.id
          LIMIT ${limit}
        `.pipe(Effect.flatMap(decodeMessages), Effect.orDie)
    })
  })
)
