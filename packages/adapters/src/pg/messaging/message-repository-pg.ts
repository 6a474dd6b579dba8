import { type Message, MessageRepository } from "@wasl/core"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst } from "../rows.ts"

const MessageRow = Schema.Struct({
  _id: Schema.String,
  account_id: DbInt,
  provider_message_id: Schema.String,
  contact_id: Schema.String,
  broadcast_id: DbInt,
  platform_id: DbInt,
  platform_third_party_id: Schema.String,
  sender_third_party_id: Schema.String,
  receiver_third_party_id: Schema.String,
  status: Schema.Literal("sent"),
  body: Schema.String,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const decodeOne = decodeFirst(MessageRow)

/** Sent messages on PostgreSQL (table `messages`, migration 0008). */
export const MessageRepositoryPg: Layer.Layer<MessageRepository, never, SqlClient.SqlClient> = Layer.effect(
  MessageRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return MessageRepository.of({
      insert: (m) =>
        sql`
          INSERT INTO messages
            (account_id, id, provider_message_id, contact_id, broadcast_id, platform_id, platform_third_party_id,
             sender_third_party_id, receiver_third_party_id, status, body, created_at, updated_at)
          VALUES (${m.account_id}, ${m._id}, ${m.provider_message_id}, ${m.contact_id}, ${m.broadcast_id},
                  ${m.platform_id}, ${m.platform_third_party_id}, ${m.sender_third_party_id},
                  ${m.receiver_third_party_id}, ${m.status}, ${m.body}, ${DateTime.toDateUtc(m.created_at)},
                  ${DateTime.toDateUtc(m.updated_at)})
        `.pipe(Effect.asVoid, Effect.orDie),
      findById: (accountId, id) =>
        sql`
          SELECT id AS _id, account_id, provider_message_id, contact_id, broadcast_id, platform_id,
                 platform_third_party_id, sender_third_party_id, receiver_third_party_id, status, body,
                 created_at, updated_at
          FROM messages WHERE account_id = ${accountId} AND id = ${id}
        `.pipe(Effect.flatMap(decodeOne), Effect.map(Option.map((row): Message => row)), Effect.orDie)
    })
  })
)
