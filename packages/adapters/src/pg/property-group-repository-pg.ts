import { invalid } from "@wasl/core/Errors"
import {
  LocalizedText,
  ObjectKindSchema,
  type PropertyGroupDefinition,
  PropertyGroupRepository
} from "@wasl/core/Records"
import { LaravelMessageMore, RecordId } from "@wasl/core/Wire"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, decodeRows } from "./rows.ts"

const GroupRow = Schema.Struct({
  id: RecordId,
  kind: ObjectKindSchema,
  internal_name: Schema.String,
  name: LocalizedText,
  description: Schema.NullOr(LocalizedText),
  account_id: DbInt,
  made_by: Schema.NullOr(DbInt),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})
type GroupRow = typeof GroupRow.Type

const COLUMNS = "id, kind, internal_name, name, description, account_id, made_by, created_at, updated_at"

const toGroup = (row: GroupRow): PropertyGroupDefinition => ({
  _id: row.id,
  name: row.name,
  desc: row.description,
  internal_name: row.internal_name,
  account_id: row.account_id,
  made_by: row.made_by,
  created_at: row.created_at,
  updated_at: row.updated_at,
  kind: row.kind,
  builtin: false
})

const decodeAll = decodeRows(GroupRow)
const decodeOne = decodeFirst(GroupRow)

const json = (value: unknown) => value === null || value === undefined ? null : JSON.stringify(value)

/** Custom property groups on PostgreSQL (table `property_groups`, migration 0005). */
export const PropertyGroupRepositoryPg: Layer.Layer<PropertyGroupRepository, never, SqlClient.SqlClient> = Layer.effect(
  PropertyGroupRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)

    const insert = (g: PropertyGroupDefinition) =>
      Effect.gen(function*() {
        if (g.account_id === null) return yield* Effect.die(new Error("A stored group belongs to an account."))
        const rows = yield* sql`
          INSERT INTO property_groups
            (account_id, id, kind, internal_name, name, description, made_by, created_at, updated_at)
          VALUES (${g.account_id}, ${g._id}, ${g.kind}, ${g.internal_name}, ${json(g.name)}::jsonb,
                  ${json(g.desc)}::jsonb, ${g.made_by}, ${DateTime.toDateUtc(g.created_at)},
                  ${DateTime.toDateUtc(g.updated_at)})
          ON CONFLICT (account_id, kind, internal_name) DO NOTHING
          RETURNING id
        `.pipe(Effect.orDie)
        if (rows.length === 0) return yield* invalid("internal_name", LaravelMessageMore.unique("internal_name"))
      })

    return PropertyGroupRepository.of({
      list: (accountId, kind) =>
        sql`
          SELECT ${columns} FROM property_groups WHERE account_id = ${accountId} AND kind = ${kind}
          ORDER BY created_at, id
        `.pipe(Effect.flatMap(decodeAll), Effect.map((rows) => rows.map(toGroup)), Effect.orDie),
      findById: (accountId, kind, id) =>
        sql`
          SELECT ${columns} FROM property_groups WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id}
        `.pipe(Effect.flatMap(decodeOne), Effect.map(Option.map(toGroup)), Effect.orDie),
      insert,
      update: (g) =>
        g.account_id === null ? Effect.succeed(false) : sql`
          UPDATE property_groups
          SET name = ${json(g.name)}::jsonb, description = ${json(g.desc)}::jsonb,
              updated_at = ${DateTime.toDateUtc(g.updated_at)}
          WHERE account_id = ${g.account_id} AND kind = ${g.kind} AND id = ${g._id}
          RETURNING id
        `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      delete: (accountId, kind, id) =>
        sql`
          DELETE FROM property_groups WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id} RETURNING id
        `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      internalNames: (accountId, kind) =>
        sql<{ readonly internal_name: string }>`
          SELECT internal_name FROM property_groups WHERE account_id = ${accountId} AND kind = ${kind}
          ORDER BY created_at, id
        `.pipe(Effect.map((rows) => rows.map((r) => r.internal_name)), Effect.orDie)
    })
  })
)
