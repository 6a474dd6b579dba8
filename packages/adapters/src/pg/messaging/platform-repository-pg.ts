import { type Platform, PlatformRepository, PROVIDER_NAMES } from "@wasl/core"
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
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

/** The columns of `platforms`, in `PlatformRow`'s order. */
export const PLATFORM_COLUMNS =
  "id, account_id, name, display_phone_number, provider, phone_id, waba_id, sealed_access_token, created_at, updated_at"

const decodeAll = decodeRows(PlatformRow)
const decodeOne = decodeFirst(PlatformRow)

/** Sending numbers on PostgreSQL (table `platforms`, migration 0008). */
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
        `.pipe(Effect.flatMap(decodeAll), Effect.orDie)
    })
  })
)
