/**
 * Conversations on PostgreSQL: `messages` (migrations 0008, 0024) read per contact, joined to
 * `contacts` for the inbox. A contact's thread walks `messages_account_contact_idx`; messages of the
 * same time are ordered by `seq`, the order they were stored in (0038).
 */
import { Conversations, type InboxEntry, type InboxQuery } from "@wasl/core/Messaging"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeRows } from "../rows.ts"
import { escapeLike } from "../records/list-statement.ts"
import { decodeMessage, decodeMessages, MESSAGE_COLUMNS } from "./message-row.ts"

/** What an inbox row carries beside its last message. */
const InboxExtras = Schema.Struct({
  inbox_fullname: Schema.NullOr(Schema.String),
  inbox_whatsapp_number: Schema.NullOr(Schema.String),
  inbox_unread: DbInt,
  inbox_last_inbound_at: DbNullOr(DbTimestamp)
})
const decodeExtras = decodeRows(InboxExtras)

const Total = Schema.Struct({ total: DbInt })
const decodeTotal = (rows: ReadonlyArray<unknown>) => Effect.map(decodeRows(Total)(rows), (r) => r[0]?.total ?? 0)

/** Conversations over the `messages` and `contacts` tables. */
export const ConversationsPg: Layer.Layer<Conversations, never, SqlClient.SqlClient> = Layer.effect(
  Conversations,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(MESSAGE_COLUMNS)

    /** The account's conversations that `query` matches, one row per contact (a CTE body). */
    const matching = (accountId: number, query: InboxQuery) => {
      const pattern = `%${escapeLike(query.search.toLowerCase())}%`
      const digits = query.search.replace(/[^0-9]/g, "")
      const search = query.search === ""
        ? sql`TRUE`
        : sql`(lower(c.fullname) LIKE ${pattern} OR lower(c.whatsapp_number) LIKE ${pattern}
               OR (${digits} <> '' AND regexp_replace(c.whatsapp_number, '[^0-9]', '', 'g') LIKE ${`%${digits}%`}))`
      return sql`
        SELECT DISTINCT ON (m.contact_id) m.contact_id, m.id, m.created_at, m.seq, c.fullname, c.whatsapp_number,
               coalesce(s.unread, 0) AS unread, s.last_inbound_at
        FROM messages m
        JOIN contacts c ON c.account_id = m.account_id AND c.id = m.contact_id
        LEFT JOIN (
          SELECT contact_id, count(*) FILTER (WHERE status = 'received') AS unread, max(created_at) AS last_inbound_at
          FROM messages
          WHERE account_id = ${accountId} AND direction = 'inbound'
          GROUP BY contact_id
        ) s ON s.contact_id = m.contact_id
        WHERE m.account_id = ${accountId} AND ${search} AND (${!query.unread} OR coalesce(s.unread, 0) > 0)
        ORDER BY m.contact_id, m.created_at DESC, m.seq DESC
      `
    }

    const latestInbound = (accountId: number, contactId: string) =>
      sql`
        SELECT ${columns} FROM messages m
        WHERE m.account_id = ${accountId} AND m.contact_id = ${contactId} AND m.direction = 'inbound'
        ORDER BY m.created_at DESC, m.seq DESC
        LIMIT 1
      `.pipe(Effect.flatMap(decodeMessage))

    return Conversations.of({
      listByContact: (accountId, contactId, page, perPage) =>
        Effect.all({
          rows: sql`
            SELECT ${columns} FROM messages m
            WHERE m.account_id = ${accountId} AND m.contact_id = ${contactId}
            ORDER BY m.created_at DESC, m.seq DESC
            LIMIT ${perPage} OFFSET ${(page - 1) * perPage}
          `.pipe(Effect.flatMap(decodeMessages)),
          total: sql`
            SELECT count(*) AS total FROM messages WHERE account_id = ${accountId} AND contact_id = ${contactId}
          `.pipe(Effect.flatMap(decodeTotal))
        }).pipe(Effect.orDie),
      inbox: (accountId, query) =>
        Effect.gen(function*() {
          const rows = yield* sql<Record<string, unknown>>`
            WITH conversations AS (${matching(accountId, query)})
            SELECT ${columns}, l.fullname AS inbox_fullname, l.whatsapp_number AS inbox_whatsapp_number,
                   l.unread AS inbox_unread, l.last_inbound_at AS inbox_last_inbound_at
            FROM conversations l
            JOIN messages m ON m.account_id = ${accountId} AND m.id = l.id
            ORDER BY l.created_at DESC, l.seq DESC
            LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}
          `
          const total = yield* sql`
            WITH conversations AS (${matching(accountId, query)}) SELECT count(*) AS total FROM conversations
          `.pipe(Effect.flatMap(decodeTotal))
          const messages = yield* decodeMessages(rows)
          const extras = yield* decodeExtras(rows)
          const entries: ReadonlyArray<InboxEntry> = messages.map((lastMessage, i) => ({
            contactId: lastMessage.contact_id,
            fullname: extras[i]!.inbox_fullname,
            whatsappNumber: extras[i]!.inbox_whatsapp_number,
            lastMessage,
            unreadCount: extras[i]!.inbox_unread,
            lastInboundAt: extras[i]!.inbox_last_inbound_at
          }))
          return { rows: entries, total }
        }).pipe(Effect.orDie),
      latestInbound: (accountId, contactId) => Effect.orDie(latestInbound(accountId, contactId)),
      markRead: (accountId, contactId, now) =>
        Effect.gen(function*() {
          const at = DateTime.toDateUtc(now)
          const marked = yield* sql`
            WITH marked AS (
              UPDATE messages SET status = 'read', read_at = ${at}, updated_at = ${at}
              WHERE account_id = ${accountId} AND contact_id = ${contactId} AND direction = 'inbound'
                AND status = 'received'
              RETURNING 1
            )
            SELECT count(*) AS total FROM marked
          `.pipe(Effect.flatMap(decodeTotal))
          return { marked, latestInbound: yield* latestInbound(accountId, contactId) }
        }).pipe(Effect.orDie)
    })
  })
)
