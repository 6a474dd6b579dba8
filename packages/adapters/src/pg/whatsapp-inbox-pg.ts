import { type ClaimedWhatsAppWebhook, WhatsAppInbox } from "@wasl/core/WhatsApp"
import { Array as Arr, DateTime, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeRows } from "./rows.ts"

/** The channel `whatsapp_inbox` NOTIFYs after each insert (migration 0025). */
export const WHATSAPP_INBOX_CHANNEL = "wasl_whatsapp_inbox"

const InboxRow = Schema.Struct({
  id: Schema.String,
  body: Schema.String,
  received_at: DbTimestamp,
  attempts: DbInt
})

const decodeInbox = decodeRows(InboxRow)

/** An id the table can hold: a positive bigint in digits (anything else is in no row). */
const ID_TEXT = /^[1-9][0-9]{0,17}$/

/** Ids per `complete` statement. */
const ID_BATCH = 1000

/**
 * The WhatsApp inbox on PostgreSQL (table `whatsapp_inbox`, migration 0025). `insert` is one
 * statement on the ambient `SqlClient` (its trigger NOTIFYs `wasl_whatsapp_inbox` at commit);
 * `claim` is one statement, `SELECT ... ORDER BY id LIMIT n FOR UPDATE SKIP LOCKED` feeding the
 * UPDATE of the lease, so concurrent claimers never share a row while its lease holds. Times come
 * from Effect's `Clock`.
 */
export const WhatsAppInboxPg: Layer.Layer<WhatsAppInbox, never, SqlClient.SqlClient> = Layer.effect(
  WhatsAppInbox,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insert = (body: string, receivedAt: DateTime.Utc) =>
      sql`INSERT INTO whatsapp_inbox (body, received_at) VALUES (${body}, ${DateTime.toDateUtc(receivedAt)})`.pipe(
        Effect.orDie,
        Effect.asVoid
      )

    const claim = (limit: number, leaseFor: Duration.Input) =>
      Effect.gen(function*() {
        const count = Math.floor(limit)
        if (!(count > 0)) return []
        const now = yield* DateTime.now
        const until = DateTime.addDuration(now, Duration.fromInputUnsafe(leaseFor))
        const rows = yield* sql`
          WITH claimable AS (
            SELECT id FROM whatsapp_inbox
            WHERE claimed_until IS NULL OR claimed_until <= ${DateTime.toDateUtc(now)}
            ORDER BY id
            LIMIT ${count}
            FOR UPDATE SKIP LOCKED
          )
          UPDATE whatsapp_inbox w
          SET claimed_until = ${DateTime.toDateUtc(until)}, attempts = w.attempts + 1
          FROM claimable c
          WHERE w.id = c.id
          RETURNING w.id::text AS id, w.body, w.received_at, w.attempts
        `.pipe(Effect.orDie, Effect.flatMap(decodeInbox))
        return rows
          .map((row): ClaimedWhatsAppWebhook => ({
            id: row.id,
            body: row.body,
            receivedAt: row.received_at,
            attempts: row.attempts
          }))
          .sort((a, b) => Number(a.id) - Number(b.id))
      })

    const complete = (ids: ReadonlyArray<string>) =>
      Effect.forEach(
        Arr.chunksOf(ids.filter((id) => ID_TEXT.test(id)), ID_BATCH),
        (chunk) => sql`DELETE FROM whatsapp_inbox WHERE id IN ${sql.in(chunk)}`,
        { discard: true }
      ).pipe(Effect.orDie)

    const retry = (id: string, at: DateTime.Utc) =>
      ID_TEXT.test(id)
        ? sql`UPDATE whatsapp_inbox SET claimed_until = ${DateTime.toDateUtc(at)} WHERE id = ${id}::int8`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
        : Effect.void

    return WhatsAppInbox.of({ insert, claim, complete, retry })
  })
)
