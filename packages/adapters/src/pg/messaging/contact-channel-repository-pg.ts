import { ContactChannelRepository } from "@wasl/core/Messaging"
import { type ContactChannel } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbTimestamp, decodeFirst, decodeRows } from "../rows.ts"

const ChannelRow = Schema.Struct({
  _id: Schema.String,
  platform_third_party_id: Schema.String,
  contact_third_party_id: Schema.String,
  created_at: DbTimestamp
})

const decodeAll = decodeRows(ChannelRow)
const decodeOne = decodeFirst(ChannelRow)

/** The contacts' channel entries on PostgreSQL (table `contact_channels`, migration 0024). */
export const ContactChannelRepositoryPg: Layer.Layer<ContactChannelRepository, never, SqlClient.SqlClient> = Layer.effect(
  ContactChannelRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ContactChannelRepository.of({
      ensure: (key, id, now) =>
        Effect.gen(function*() {
          // The no-op update makes a concurrent twin's row come back too (DO NOTHING returns none).
          const rows = yield* sql`
            INSERT INTO contact_channels
              (account_id, id, contact_id, platform_third_party_id, contact_third_party_id, created_at)
            VALUES (${key.accountId}, ${id}, ${key.contactId}, ${key.platformThirdPartyId}, ${key.contactThirdPartyId},
                    ${DateTime.toDateUtc(now)})
            ON CONFLICT (account_id, contact_id, platform_third_party_id, contact_third_party_id)
              DO UPDATE SET contact_id = EXCLUDED.contact_id
            RETURNING id AS _id, platform_third_party_id, contact_third_party_id, created_at
          `
          return Option.getOrThrow(yield* decodeOne(rows)) satisfies ContactChannel
        }).pipe(Effect.orDie),
      listOfContact: (accountId, contactId) =>
        sql`
          SELECT id AS _id, platform_third_party_id, contact_third_party_id, created_at
          FROM contact_channels WHERE account_id = ${accountId} AND contact_id = ${contactId}
          ORDER BY created_at, id
        `.pipe(Effect.flatMap(decodeAll), Effect.orDie)
    })
  })
)
