import {
  type Broadcast,
  BROADCAST_STATUSES,
  BroadcastRepository,
  BUTTON_TYPES,
  HEADER_FORMATS,
  type Platform,
  TEMPLATE_CATEGORIES
} from "@wasl/core/Messaging"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, decodeRows, nowParam } from "../rows.ts"
import { PlatformRow } from "./platform-repository-pg.ts"

const Header = Schema.Struct({ format: Schema.Literals(HEADER_FORMATS), text: Schema.NullOr(Schema.String) })
const Button = Schema.Struct({
  type: Schema.Literals(BUTTON_TYPES),
  text: Schema.String,
  url: Schema.optionalKey(Schema.String),
  phone_number: Schema.optionalKey(Schema.String)
})

const BroadcastRow = Schema.Struct({
  id: DbInt,
  account_id: DbInt,
  name: Schema.String,
  language: Schema.String,
  status: Schema.Literals(BROADCAST_STATUSES),
  reason: Schema.NullOr(Schema.String),
  created_at: DbTimestamp,
  updated_at: DbTimestamp,
  t_id: DbInt,
  t_name: Schema.String,
  t_category: Schema.Literals(TEMPLATE_CATEGORIES),
  t_external_id: Schema.NullOr(Schema.String),
  t_header: Schema.NullOr(Header),
  t_body: Schema.String,
  t_footer: Schema.NullOr(Schema.String),
  t_buttons: Schema.NullOr(Schema.Array(Button)),
  t_code_expiration_minutes: Schema.NullOr(DbInt),
  t_created_at: DbTimestamp,
  t_updated_at: DbTimestamp,
  platform: PlatformRow
})
type BroadcastRow = typeof BroadcastRow.Type

const SELECT = `
  SELECT b.id, b.account_id, b.name, b.language, b.status, b.reason, b.created_at, b.updated_at,
         t.id AS t_id, t.name AS t_name, t.category AS t_category, t.external_id AS t_external_id,
         t.header AS t_header, t.body AS t_body, t.footer AS t_footer, t.buttons AS t_buttons,
         t.code_expiration_minutes AS t_code_expiration_minutes,
         t.created_at AS t_created_at, t.updated_at AS t_updated_at,
         to_json(p) AS platform
  FROM broadcasts b
  JOIN message_templates t ON t.account_id = b.account_id AND t.id = b.template_id
  JOIN platforms p ON p.account_id = b.account_id AND p.id = b.platform_id`

const toBroadcast = (row: BroadcastRow): Broadcast => ({
  id: row.id,
  account_id: row.account_id,
  name: row.name,
  language: row.language,
  status: row.status,
  reason: row.reason,
  created_at: row.created_at,
  updated_at: row.updated_at,
  platform: row.platform satisfies Platform,
  template: {
    id: row.t_id,
    name: row.t_name,
    category: row.t_category,
    external_id: row.t_external_id,
    header: row.t_header,
    body: row.t_body,
    footer: row.t_footer,
    buttons: row.t_buttons,
    code_expiration_minutes: row.t_code_expiration_minutes,
    created_at: row.t_created_at,
    updated_at: row.t_updated_at
  }
})

const decodeAll = decodeRows(BroadcastRow)
const decodeOne = decodeFirst(BroadcastRow)

const json = (value: unknown) => value === null || value === undefined ? null : JSON.stringify(value)

/** Broadcasts and their templates on PostgreSQL (migrations 0008 and 0034). */
export const BroadcastRepositoryPg: Layer.Layer<BroadcastRepository, never, SqlClient.SqlClient> = Layer.effect(
  BroadcastRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(SELECT)

    const findById = (accountId: number, id: number) =>
      sql`${select} WHERE b.account_id = ${accountId} AND b.id = ${id}`.pipe(
        Effect.flatMap(decodeOne),
        Effect.map(Option.map(toBroadcast)),
        Effect.orDie
      )

    return BroadcastRepository.of({
      insert: (accountId, input, platform, review) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const t = input.template
          const [template] = yield* sql<{ readonly id: unknown }>`
            INSERT INTO message_templates
              (account_id, name, category, external_id, header, body, footer, buttons, code_expiration_minutes,
               created_at, updated_at)
            VALUES (${accountId}, ${t.name}, ${t.category}, ${review.external_id}, ${json(t.header)}::jsonb, ${t.body},
                    ${t.footer}, ${json(t.buttons)}::jsonb, ${t.code_expiration_minutes}, ${now}, ${now})
            RETURNING id
          `
          const [broadcast] = yield* sql<{ readonly id: unknown }>`
            INSERT INTO broadcasts
              (account_id, name, language, template_id, platform_id, status, reason, created_at, updated_at)
            VALUES (${accountId}, ${input.name}, ${input.language}, ${Number(template!.id)}, ${platform.id},
                    ${review.status}, ${review.reason}, ${now}, ${now})
            RETURNING id
          `
          return Option.getOrThrow(yield* findById(accountId, Number(broadcast!.id)))
        }).pipe((effect) => sql.withTransaction(effect), Effect.orDie),
      list: (accountId) =>
        sql`${select} WHERE b.account_id = ${accountId} ORDER BY b.id`.pipe(
          Effect.flatMap(decodeAll),
          Effect.map((rows) => rows.map(toBroadcast)),
          Effect.orDie
        ),
      findById,
      updateReview: (accountId, id, patch) =>
        Effect.gen(function*() {
          // The rows locked first: of two concurrent equal reviews, the second sees the first's change.
          const [current] = yield* sql<{ readonly status: string; readonly reason: string | null; readonly category: string; readonly template_id: unknown }>`
            SELECT b.status, b.reason, t.category, t.id AS template_id
            FROM broadcasts b JOIN message_templates t ON t.account_id = b.account_id AND t.id = b.template_id
            WHERE b.account_id = ${accountId} AND b.id = ${id}
            FOR UPDATE OF b, t
          `
          if (current === undefined) return Option.none<Broadcast>()
          const { param: now } = yield* nowParam
          const status = patch.status ?? current.status
          const reason = patch.reason === undefined ? current.reason : patch.reason
          const reviewed = status !== current.status || reason !== current.reason
          const recategorized = patch.category !== undefined && patch.category !== current.category
          if (reviewed) {
            yield* sql`
              UPDATE broadcasts SET status = ${status}, reason = ${reason}, updated_at = ${now}
              WHERE account_id = ${accountId} AND id = ${id}
            `
          }
          if (recategorized) {
            yield* sql`
              UPDATE message_templates SET category = ${patch.category!}, updated_at = ${now}
              WHERE account_id = ${accountId} AND id = ${Number(current.template_id)}
            `
          }
          if (!reviewed && !recategorized) return Option.none<Broadcast>()
          return yield* findById(accountId, id)
        }).pipe((effect) => sql.withTransaction(effect), Effect.orDie),
      findByExternalTemplate: (wabaId, externalId) =>
        sql`${select} WHERE t.external_id = ${externalId} AND p.waba_id = ${wabaId} ORDER BY b.id`.pipe(
          Effect.flatMap(decodeAll),
          Effect.map((rows) => rows.map(toBroadcast)),
          Effect.orDie
        ),
      accountsWithSubmittedTemplates: sql<{ readonly account_id: unknown }>`
        SELECT DISTINCT account_id FROM message_templates WHERE external_id IS NOT NULL ORDER BY account_id
      `.pipe(Effect.map((rows) => rows.map((r) => Number(r.account_id))), Effect.orDie)
    })
  })
)
