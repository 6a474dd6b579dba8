/**
 * The core's `RecordMergeStore` on PostgreSQL: the two records held `FOR UPDATE` in id order,
 * then the notes, link rows, and a contact's channel entries and messages of the emptied record
 * moved onto the kept one by a few UPDATE / INSERT … ON CONFLICT statements in the caller's
 * transaction.
 *
 * @module
 */
import { type RecordLinkInput, RecordMergeStore } from "@wasl/core/Records"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { KIND_STORAGE, LINKS, linkSidesOf as sidesOf } from "./records/storage.ts"

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return RecordMergeStore.of({
    hold: (pair) =>
      Effect.map(
        sql<{ readonly id: string }>`
          SELECT id FROM ${sql(KIND_STORAGE[pair.kind].table)}
          WHERE account_id = ${pair.accountId}::int8 AND id IN (${pair.into}, ${pair.from}) ORDER BY id FOR UPDATE
        `,
        (rows) => rows.map((row) => row.id)
      ).pipe(Effect.orDie),
    moveOver: (pair) =>
      Effect.gen(function*() {
        const account = sql`account_id = ${pair.accountId}::int8`
        yield* sql`UPDATE notes SET record_id = ${pair.into}
          WHERE ${account} AND object_type = ${pair.kind} AND record_id = ${pair.from}`
        const gained: Array<RecordLinkInput> = []
        for (const side of sidesOf(pair.kind)) {
          const rows = yield* sql<Record<string, unknown>>`
            INSERT INTO ${sql(side.table)} (account_id, ${sql(side.own)}, ${sql(side.other)}, created_at)
            SELECT account_id, ${pair.into}, ${sql(side.other)}, created_at FROM ${sql(side.table)}
            WHERE ${account} AND ${sql(side.own)} = ${pair.from}
            ON CONFLICT DO NOTHING
            RETURNING ${sql(LINKS[side.link].from[1])} AS "from", ${sql(LINKS[side.link].to[1])} AS "to"
          `
          yield* sql`DELETE FROM ${sql(side.table)} WHERE ${account} AND ${sql(side.own)} = ${pair.from}`
          for (const row of rows) gained.push({ accountId: pair.accountId, link: side.link, from: String(row.from), to: String(row.to) })
        }
        if (pair.kind === "contact") {
          // A channel both contacts have: the kept one's entry takes the emptied one's messages.
          yield* sql`
            UPDATE messages m SET contact_channel_id = k.id
            FROM contact_channels o JOIN contact_channels k ON k.account_id = o.account_id AND k.contact_id = ${pair.into}
              AND k.platform_third_party_id = o.platform_third_party_id AND k.contact_third_party_id = o.contact_third_party_id
            WHERE o.account_id = ${pair.accountId}::int8 AND o.contact_id = ${pair.from}
              AND m.account_id = o.account_id AND m.contact_channel_id = o.id
          `
          yield* sql`
            DELETE FROM contact_channels o USING contact_channels k
            WHERE o.account_id = ${pair.accountId}::int8 AND o.contact_id = ${pair.from}
              AND k.account_id = o.account_id AND k.contact_id = ${pair.into}
              AND k.platform_third_party_id = o.platform_third_party_id AND k.contact_third_party_id = o.contact_third_party_id
          `
          yield* sql`UPDATE contact_channels SET contact_id = ${pair.into} WHERE ${account} AND contact_id = ${pair.from}`
          yield* sql`UPDATE messages SET contact_id = ${pair.into} WHERE ${account} AND contact_id = ${pair.from}`
        }
        return gained
      }).pipe(Effect.orDie)
  })
})

/** `RecordMergeStore` on PostgreSQL (`SqlClient`, migrated). */
export const RecordMergeStorePg: Layer.Layer<RecordMergeStore, never, SqlClient.SqlClient> = Layer.effect(RecordMergeStore, make)
