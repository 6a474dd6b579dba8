import { type Platform, PlatformRepository, PROVIDER_NAMES } from "@wasl/core/Messaging"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, decodeRows, nowParam } from "../rows.ts"

/** A `platforms` row, decoded. */
export const PlatformRow: Schema.Struct<{
  readonly id: typeof DbInt
  readonly account_id: typeof DbInt
  readonly name: Schema.String
  readonly display_phone_number: Schema.String
  readonly provider: Schema.Literals<typeof PROVIDER_NAMES>
  readonly phone_id: Schema.NullOr<Schema.String>
  readonly waba_id: Schema.NullOr<Schema.String>
  readonly sealed_access_token: Schema.NullOr<Schema.String>
  readonly verified_name: Schema.NullOr<Schema.String>
  readonly code_verification_status: Schema.NullOr<Schema.String>
  readonly quality_rating: Schema.NullOr<Schema.String>
  readonly messaging_limit_tier: Schema.NullOr<Schema.String>
  readonly created_at: typeof DbTimestamp
  readonly updated_at: typeof DbTimestamp
}> = Schema.Struct({
  id: DbInt,
  account_id: DbInt,
  name: Schema.String,
  display_phone_number: Schema.String,
  provider: Schema.Literals(PROVIDER_NAMES),
  phone_id: Schema.NullOr(Schema.String),
  waba_id: Schema.NullOr(Schema.String),
  sealed_access_token: Schema.NullOr(Schema.String),
  verified_name: Schema.NullOr(Schema.String),
  code_verification_status: Schema.NullOr(Schema.String),
  quality_rating: Schema.NullOr(Schema.String),
  messaging_limit_tier: Schema.NullOr(Schema.String),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

/** The columns of `platforms`, in `PlatformRow`'s order. */
export const PLATFORM_COLUMNS: string =
  "id, account_id, name, display_phone_number, provider, phone_id, waba_id, sealed_access_token, verified_name, " +
  "code_verification_status, quality_rating, messaging_limit_tier, created_at, updated_at"

const decodeAll = decodeRows(PlatformRow)
const decodeOne = decodeFirst(PlatformRow)

/**
 * Sending numbers on PostgreSQL (table `platforms`, migrations 0008 and 0037). `remove` runs in a
 * transaction of its own (or the caller's): it unlinks the messages of the number's broadcasts
 * first, so the broadcasts' cascade (templates, OTP verifications) leaves the conversation
 * history in place.
 */
export const PlatformRepositoryPg: Layer.Layer<PlatformRepository, never, SqlClient.SqlClient> = Layer.effect(
  PlatformRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(PLATFORM_COLUMNS)
    return PlatformRepository.of({
      insert: (accountId, input) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const rows = yield* sql`
            INSERT INTO platforms
              (account_id, name, display_phone_number, provider, phone_id, waba_id, sealed_access_token, created_at, updated_at)
            VALUES (${accountId}, ${input.name}, ${input.display_phone_number}, ${input.provider}, ${input.phone_id},
                    ${input.waba_id}, ${input.sealed_access_token}, ${now}, ${now})
            RETURNING ${columns}
          `
          return Option.getOrThrow(yield* decodeOne(rows)) satisfies Platform
        }).pipe(Effect.orDie),
      list: (accountId) =>
        sql`SELECT ${columns} FROM platforms WHERE account_id = ${accountId} ORDER BY id`.pipe(
          Effect.flatMap(decodeAll),
          Effect.orDie
        ),
      findById: (accountId, id) =>
        sql`SELECT ${columns} FROM platforms WHERE account_id = ${accountId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeOne),
          Effect.orDie
        ),
      findByProviderNumber: (phoneNumberId) =>
        sql`
          SELECT ${columns} FROM platforms
          WHERE phone_id = ${phoneNumberId}
             OR (phone_id IS NULL AND regexp_replace(display_phone_number, '[^0-9]', '', 'g') = ${phoneNumberId})
          ORDER BY id
        `.pipe(Effect.flatMap(decodeAll), Effect.orDie),
      update: (accountId, id, changes) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const rows = yield* sql`
            UPDATE platforms SET
              name = COALESCE(${changes.name ?? null}, name),
              sealed_access_token = COALESCE(${changes.sealed_access_token ?? null}, sealed_access_token),
              updated_at = ${now}
            WHERE account_id = ${accountId} AND id = ${id}
            RETURNING ${columns}
          `
          return yield* decodeOne(rows)
        }).pipe(Effect.orDie),
      setHealth: (accountId, id, health) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const rows = yield* sql`
            UPDATE platforms SET
              verified_name = ${health.verified_name},
              code_verification_status = ${health.code_verification_status},
              quality_rating = ${health.quality_rating},
              messaging_limit_tier = ${health.messaging_limit_tier},
              updated_at = ${now}
            WHERE account_id = ${accountId} AND id = ${id}
            RETURNING ${columns}
          `
          return yield* decodeOne(rows)
        }).pipe(Effect.orDie),
      setLimitTier: (wabaId, displayDigits, tier) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const rows = yield* sql`
            WITH matched AS (
              SELECT account_id, id FROM platforms
              WHERE provider = 'whatsapp_cloud' AND waba_id = ${wabaId}
                AND regexp_replace(display_phone_number, '[^0-9]', '', 'g') = ${displayDigits}
            )
            UPDATE platforms p SET messaging_limit_tier = ${tier}, updated_at = ${now}
            FROM matched m
            WHERE p.account_id = m.account_id AND p.id = m.id
              AND (SELECT count(DISTINCT account_id) FROM matched) = 1
            RETURNING ${sql.literal(PLATFORM_COLUMNS.split(", ").map((c) => `p.${c}`).join(", "))}
          `
          return yield* decodeAll(rows)
        }).pipe(Effect.orDie),
      remove: (accountId, id) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`
            UPDATE messages SET broadcast_id = NULL
            WHERE account_id = ${accountId}
              AND broadcast_id IN (SELECT id FROM broadcasts WHERE account_id = ${accountId} AND platform_id = ${id})
          `
          const templates = yield* sql<{ readonly template_id: string | number }>`
            SELECT template_id FROM broadcasts WHERE account_id = ${accountId} AND platform_id = ${id}
          `
          const removed = yield* sql`DELETE FROM platforms WHERE account_id = ${accountId} AND id = ${id} RETURNING id`
          if (templates.length > 0) {
            yield* sql`
              DELETE FROM message_templates
              WHERE account_id = ${accountId} AND id IN ${sql.in(templates.map((t) => t.template_id))}
                AND NOT EXISTS (SELECT 1 FROM broadcasts b WHERE b.account_id = ${accountId} AND b.template_id = message_templates.id)
            `
          }
          return removed.length > 0
        })).pipe(Effect.orDie)
    })
  })
)
