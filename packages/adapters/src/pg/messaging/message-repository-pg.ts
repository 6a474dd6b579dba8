import { type Message, MessageRepository } from "@wasl/core/Messaging"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeMessage, MESSAGE_COLUMNS, messageJsonParams, messageTimes } from "./message-row.ts"

/** Messages on PostgreSQL (table `messages`, migrations 0008 and 0024). */
export const MessageRepositoryPg: Layer.Layer<MessageRepository, never, SqlClient.SqlClient> = Layer.effect(
  MessageRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(MESSAGE_COLUMNS)
    return MessageRepository.of({
      insert: (m: Message) => {
        const json = messageJsonParams(m)
        const times = messageTimes(m)
        return sql`
          INSERT INTO messages
            (account_id, id, provider_message_id, contact_id, contact_channel_id, broadcast_id, platform_id,
             platform_third_party_id, sender_third_party_id, receiver_third_party_id, direction, type, status, body,
             content, context_id, attachments, error, sent_at, delivered_at, read_at, failed_at, created_at, updated_at)
          VALUES (${m.account_id}, ${m._id}, ${m.provider_message_id}, ${m.contact_id}, ${m.contact_channel_id},
                  ${m.broadcast_id}, ${m.platform_id}, ${m.platform_third_party_id}, ${m.sender_third_party_id},
                  ${m.receiver_third_party_id}, ${m.direction}, ${m.type}, ${m.status}, ${m.body},
                  ${json.content}::jsonb, ${m.context_id}, ${json.attachments}::jsonb, ${json.error}::jsonb,
                  ${times.sent_at}, ${times.delivered_at}, ${times.read_at}, ${times.failed_at}, ${times.created_at},
                  ${times.updated_at})
        `.pipe(Effect.asVoid, Effect.orDie)
      },
      insertMany: (messages) => {
        if (messages.length === 0) return Effect.void
        // One parameter for them all: the rows as JSON, in order (their arrival order follows it).
        const rows = JSON.stringify(messages.map((m, n) => ({ ...m, ...messageJsonParams(m), ...messageTimes(m), n })))
        return sql`
          INSERT INTO messages
            (account_id, id, provider_message_id, contact_id, contact_channel_id, broadcast_id, platform_id,
             platform_third_party_id, sender_third_party_id, receiver_third_party_id, direction, type, status, body,
             content, context_id, attachments, error, sent_at, delivered_at, read_at, failed_at, created_at, updated_at)
          SELECT x.account_id, x._id, x.provider_message_id, x.contact_id, x.contact_channel_id, x.broadcast_id,
                 x.platform_id, x.platform_third_party_id, x.sender_third_party_id, x.receiver_third_party_id,
                 x.direction, x.type, x.status, x.body, x.content::jsonb, x.context_id, x.attachments::jsonb,
                 x.error::jsonb, x.sent_at, x.delivered_at, x.read_at, x.failed_at, x.created_at, x.updated_at
          FROM jsonb_to_recordset(${rows}::jsonb) AS x(
            account_id bigint, _id text, provider_message_id text, contact_id text, contact_channel_id text,
            broadcast_id bigint, platform_id bigint, platform_third_party_id text, sender_third_party_id text,
            receiver_third_party_id text, direction text, type text, status text, body text, content text,
            context_id text, attachments text, error text, sent_at timestamptz, delivered_at timestamptz,
            read_at timestamptz, failed_at timestamptz, created_at timestamptz, updated_at timestamptz, n integer
          )
          ORDER BY x.n
        `.pipe(Effect.asVoid, Effect.orDie)
      },
      findById: (accountId, id) =>
        sql`SELECT ${columns} FROM messages m WHERE m.account_id = ${accountId} AND m.id = ${id}`.pipe(
          Effect.flatMap(decodeMessage),
          Effect.orDie
        ),
      findByProviderId: (accountId, providerMessageId) =>
        sql`
          SELECT ${columns} FROM messages m
          WHERE m.account_id = ${accountId} AND m.provider_message_id = ${providerMessageId}
          ORDER BY m.created_at, m.seq
          LIMIT 1
          FOR UPDATE
        `.pipe(Effect.flatMap(decodeMessage), Effect.orDie),
      update: (m: Message) => {
        const json = messageJsonParams(m)
        const times = messageTimes(m)
        return sql`
          UPDATE messages SET
            contact_channel_id = ${m.contact_channel_id}, status = ${m.status}, body = ${m.body},
            content = ${json.content}::jsonb, attachments = ${json.attachments}::jsonb, error = ${json.error}::jsonb,
            sent_at = ${times.sent_at}, delivered_at = ${times.delivered_at}, read_at = ${times.read_at},
            failed_at = ${times.failed_at}, updated_at = ${times.updated_at}
          WHERE account_id = ${m.account_id} AND id = ${m._id}
        `.pipe(Effect.asVoid, Effect.orDie)
      }
    })
  })
)
