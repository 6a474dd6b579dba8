import { MessageStatusHoldRepository, REPORTED_STATUSES, type StatusReport } from "@wasl/core/Messaging"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbTimestamp, decodeRows, nowParam } from "../rows.ts"

const HoldRow = Schema.Struct({
  status: Schema.Literals(REPORTED_STATUSES),
  at: DbTimestamp,
  error: Schema.NullOr(Schema.Struct({ code: Schema.Int, title: Schema.String, details: Schema.NullOr(Schema.String) }))
})

const decodeAll = decodeRows(HoldRow)
const decodeAllWithId = decodeRows(Schema.Struct({ provider_message_id: Schema.String, ...HoldRow.fields }))
const decodeTracked = decodeRows(Schema.Struct({ tracking: Schema.String, provider_message_id: Schema.String }))

/** Statuses held for messages not stored yet, on PostgreSQL (table `message_status_holds`, migrations 0027 and 0055). */
export const MessageStatusHoldRepositoryPg: Layer.Layer<MessageStatusHoldRepository, never, SqlClient.SqlClient> = Layer.effect(
  MessageStatusHoldRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return MessageStatusHoldRepository.of({
      hold: (accountId, providerMessageId, report, tracking) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const error = report.error === null ? null : JSON.stringify(report.error)
          yield* sql`
            INSERT INTO message_status_holds (account_id, provider_message_id, status, at, error, tracking, created_at)
            VALUES (
              ${accountId}, ${providerMessageId}, ${report.status}, ${DateTime.toDateUtc(report.at)}, ${error}::jsonb, ${tracking}, ${now}
            )
            ON CONFLICT DO NOTHING
          `
        }).pipe(Effect.orDie),
      findTracked: (accountId, trackings) =>
        trackings.length === 0
          ? Effect.succeed(new Map<string, string>())
          : sql`
            SELECT DISTINCT tracking, provider_message_id FROM message_status_holds
            WHERE account_id = ${accountId} AND tracking = ANY(${[...trackings]}::text[])
          `.pipe(
            Effect.flatMap(decodeTracked),
            Effect.map((rows): ReadonlyMap<string, string> => new Map(rows.map((r) => [r.tracking, r.provider_message_id]))),
            Effect.orDie
          ),
      take: (accountId, providerMessageId) =>
        sql`
          DELETE FROM message_status_holds WHERE account_id = ${accountId} AND provider_message_id = ${providerMessageId}
          RETURNING status, at, error
        `.pipe(Effect.flatMap(decodeAll), Effect.map((rows): ReadonlyArray<StatusReport> => rows), Effect.orDie),
      takeMany: (accountId, providerMessageIds) =>
        providerMessageIds.length === 0
          ? Effect.succeed(new Map<string, ReadonlyArray<StatusReport>>())
          : sql`
            DELETE FROM message_status_holds
            WHERE account_id = ${accountId} AND provider_message_id = ANY(${[...providerMessageIds]}::text[])
            RETURNING provider_message_id, status, at, error
          `.pipe(
            Effect.flatMap(decodeAllWithId),
            Effect.map((rows) => {
              const held = new Map<string, Array<StatusReport>>()
              for (const { provider_message_id, ...report } of rows) {
                const list = held.get(provider_message_id) ?? []
                list.push(report)
                held.set(provider_message_id, list)
              }
              return held as ReadonlyMap<string, ReadonlyArray<StatusReport>>
            }),
            Effect.orDie
          )
    })
  })
)
