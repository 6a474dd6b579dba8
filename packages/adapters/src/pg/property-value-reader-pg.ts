/**
 * The values an account's records hold for one custom property, read from the
 * record rows' `custom` object (keyed by property id, migration 0004).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { PropertyValueReader, type StoredValue } from "@wasl/core"
import { KIND_STORAGE } from "./records/storage.ts"

export const PropertyValueReaderPg = Layer.effect(
  PropertyValueReader,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return PropertyValueReader.of({
      valuesOf: (accountId, kind, propertyId) =>
        sql<{ readonly value: StoredValue }>`
          SELECT DISTINCT custom -> ${propertyId} AS value
          FROM ${sql(KIND_STORAGE[kind].table)}
          WHERE account_id = ${accountId} AND custom ? ${propertyId}
        `.pipe(
          Effect.map((rows) => rows.map((row) => row.value)),
          Effect.orDie
        )
    })
  })
)
