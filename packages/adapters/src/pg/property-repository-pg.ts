import { invalid } from "@wasl/core/Errors"
import {
  EnumOption,
  LocalizedText,
  ObjectKindSchema,
  type PropertyDefinition,
  PropertyRepository,
  PropertyType
} from "@wasl/core/Records"
import { LaravelMessageMore, RecordId } from "@wasl/core/Wire"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, decodeRows } from "./rows.ts"

const PropertyRow = Schema.Struct({
  id: RecordId,
  kind: ObjectKindSchema,
  internal_name: Schema.String,
  type: PropertyType,
  name: LocalizedText,
  description: Schema.NullOr(LocalizedText),
  group_id: RecordId,
  options: Schema.NullOr(Schema.Array(EnumOption)),
  account_id: DbInt,
  made_by: Schema.NullOr(DbInt),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})
type PropertyRow = typeof PropertyRow.Type

const COLUMNS =
  "id, kind, internal_name, type, name, description, group_id, options, account_id, made_by, created_at, updated_at"

const toDefinition = (row: PropertyRow): PropertyDefinition => ({
  _id: row.id,
  type: row.type,
  name: row.name,
  desc: row.description,
  internal_name: row.internal_name,
  group_id: row.group_id,
  ...(row.options === null ? {} : { enum: row.options }),
  account_id: row.account_id,
  made_by: row.made_by,
  created_at: row.created_at,
  updated_at: row.updated_at,
  kind: row.kind,
  builtin: false,
  readOnly: false,
  required: false
})

const decodeAll = decodeRows(PropertyRow)
const decodeOne = decodeFirst(PropertyRow)

const json = (value: unknown) => value === null || value === undefined ? null : JSON.stringify(value)

/** Custom property definitions on PostgreSQL (table `properties`, migration 0005). */
export const PropertyRepositoryPg: Layer.Layer<PropertyRepository, never, SqlClient.SqlClient> = Layer.effect(
  PropertyRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)

    const insert = (d: PropertyDefinition) =>
      Effect.gen(function*() {
        if (d.account_id === null) return yield* Effect.die(new Error("A stored property belongs to an account."))
        const rows = yield* sql`
          INSERT INTO properties
            (account_id, id, kind, internal_name, type, name, description, group_id, options, made_by, created_at, updated_at)
          VALUES (${d.account_id}, ${d._id}, ${d.kind}, ${d.internal_name}, ${d.type}, ${json(d.name)}::jsonb,
                  ${json(d.desc)}::jsonb, ${d.group_id}, ${json(d.enum)}::jsonb, ${d.made_by},
                  ${DateTime.toDateUtc(d.created_at)}, ${DateTime.toDateUtc(d.updated_at)})
          ON CONFLICT (account_id, kind, internal_name) DO NOTHING
          RETURNING id
        `.pipe(Effect.orDie)
        if (rows.length === 0) return yield* invalid("internal_name", LaravelMessageMore.unique("internal_name"))
      })

    return PropertyRepository.of({
      list: (accountId, kind) =>
        sql`
          SELECT ${columns} FROM properties WHERE account_id = ${accountId} AND kind = ${kind} ORDER BY created_at, id
        `.pipe(Effect.flatMap(decodeAll), Effect.map((rows) => rows.map(toDefinition)), Effect.orDie),
      findById: (accountId, kind, id) =>
        sql`
          SELECT ${columns} FROM properties WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id}
        `.pipe(Effect.flatMap(decodeOne), Effect.map(Option.map(toDefinition)), Effect.orDie),
      insert,
      update: (d) =>
        d.account_id === null ? Effect.succeed(false) : sql`
          UPDATE properties
          SET type = ${d.type}, name = ${json(d.name)}::jsonb, description = ${json(d.desc)}::jsonb,
              group_id = ${d.group_id}, options = ${json(d.enum)}::jsonb, updated_at = ${DateTime.toDateUtc(d.updated_at)}
          WHERE account_id = ${d.account_id} AND kind = ${d.kind} AND id = ${d._id}
          RETURNING id
        `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      delete: (accountId, kind, id) =>
        sql`
          DELETE FROM properties WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id} RETURNING id
        `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      countInGroup: (accountId, kind, groupId) =>
        sql<{ readonly count: unknown }>`
          SELECT count(*)::int AS count FROM properties
          WHERE account_id = ${accountId} AND kind = ${kind} AND group_id = ${groupId}
        `.pipe(Effect.map((rows) => Number(rows[0]?.count ?? 0)), Effect.orDie),
      internalNames: (accountId, kind) =>
        sql<{ readonly internal_name: string }>`
          SELECT internal_name FROM properties WHERE account_id = ${accountId} AND kind = ${kind} ORDER BY created_at, id
        `.pipe(Effect.map((rows) => rows.map((r) => r.internal_name)), Effect.orDie)
    })
  })
)
