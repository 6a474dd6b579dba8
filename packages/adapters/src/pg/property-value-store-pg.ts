/**
 * The values an account's records hold for one custom property, in the record rows' `custom`
 * object (keyed by property id, migration 0004) and the typed side rows filters and ordering use.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type PropertyDefinition, PropertyValueStore, type StoredValue } from "@wasl/core/Records"
import { dropPropertyValues, rebuildPropertyValues } from "./records/custom-value-rows.ts"
import { KIND_STORAGE } from "./records/storage.ts"

const scopeOf = (accountId: number, property: PropertyDefinition) => ({
  accountId,
  kind: property.kind,
  property: { id: property._id, internal_name: property.internal_name, type: property.type }
})

/**
 * `PropertyValueStore` on PostgreSQL (`SqlClient`, migrated): the values records hold for a custom
 * property, converted in one statement when its type changes.
 */
export const PropertyValueStorePg: Layer.Layer<PropertyValueStore, never, SqlClient.SqlClient> = Layer.effect(
  PropertyValueStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return PropertyValueStore.of({
      valuesOf: (accountId, kind, propertyId) =>
        sql<{ readonly value: StoredValue }>`
          SELECT DISTINCT custom -> ${propertyId} AS value
          FROM ${sql(KIND_STORAGE[kind].table)}
          WHERE account_id = ${accountId} AND custom ? ${propertyId}
        `.pipe(
          Effect.map((rows) => rows.map((row) => row.value)),
          Effect.orDie
        ),
      convert: (accountId, property, conversions) =>
        Effect.gen(function*() {
          const changed = conversions.filter((c) => JSON.stringify(c.from) !== JSON.stringify(c.to))
          if (changed.length > 0) {
            // One statement for every distinct value: a JSON list of (from, to) pairs joined on the value.
            yield* sql`
              UPDATE ${sql(KIND_STORAGE[property.kind].table)} r
              SET custom = CASE WHEN c.t IS NULL OR c.t = 'null'::jsonb THEN r.custom - ${property._id}::text
                                ELSE jsonb_set(r.custom, ARRAY[${property._id}::text], c.t) END
              FROM jsonb_to_recordset(${JSON.stringify(changed.map((c) => ({ f: c.from, t: c.to })))}::jsonb)
                AS c(f jsonb, t jsonb)
              WHERE r.account_id = ${accountId}::int8 AND r.custom -> ${property._id}::text = c.f
            `
          }
          yield* rebuildPropertyValues(sql, scopeOf(accountId, property))
        }).pipe(Effect.orDie),
      drop: (accountId, property) => Effect.asVoid(dropPropertyValues(sql, scopeOf(accountId, property)))
    })
  })
)
