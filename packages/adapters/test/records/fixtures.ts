/**
 * Shared pieces of the PostgreSQL records tests: the layer over a database variant, accounts, ids,
 * custom property definitions,
 * and the reference ordering of lists (no value last in either direction, ties by id; the expected order the SQL must produce: the memory
 * adapter's, whose keys the record list contract checks case by case).
 */
import type { ObjectKind, OrderDirection, PropertyDefinition } from "@wasl/core/Records"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { MigrationsLive } from "../../src/db/database.ts"
import { type OrderSpec, type SortKey, sortByKey, sortKeyOf } from "../../src/memory/record-order.ts"
import { RecordRepositoryPg } from "../../src/pg/record-repository-pg.ts"
import type { CustomProperty } from "../../src/pg/records/storage.ts"
import { asRecordId, customProperty } from "../../src/testing/record-contract-support.ts"

/** `RecordRepositoryPg` and the raw client over a migrated database. */
export const storeOn = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  RecordRepositoryPg.pipe(Layer.provideMerge(MigrationsLive), Layer.provideMerge(database))

/** The account's definitions of custom properties of `kind` with the given ids, names and types. */
export const definitionsOf = (kind: ObjectKind, custom: ReadonlyArray<CustomProperty>): Array<PropertyDefinition> =>
  custom.map((p) => ({ ...customProperty(0, kind, p.internal_name, p.type), _id: asRecordId(p.id) }))

/** A fresh 24-hex id. */
export const newId = (): string => randomBytes(12).toString("hex")

/** A new account; its id. */
export const newAccount = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ readonly id: number }>`
    INSERT INTO accounts (name, created_at, updated_at) VALUES ('records test', now(), now()) RETURNING id
  `
  return row!.id
}).pipe(Effect.orDie)

// -----------------------------------------------------------------------------------------------
// The reference ordering
// -----------------------------------------------------------------------------------------------

/** The order's kinds of value. */
export type OrderType = "text" | "number" | "boolean" | "datetime" | "date" | "set"

const SPECS: { readonly [T in OrderType]: OrderSpec } = {
  text: { type: "string", asIs: false },
  number: { type: "number", asIs: false },
  boolean: { type: "boolean", asIs: false },
  datetime: { type: "datetime", asIs: false },
  date: { type: "date", asIs: false },
  set: { type: "multi_select", asIs: false }
}

/** The sort key of a value (undefined: no value), as lists order it (the memory adapter's keys). */
export const sortKey = (type: OrderType, value: unknown): SortKey | undefined => sortKeyOf(SPECS[type], value)

/**
 * Ids in list order: by the key in the direction, ties by id in the same direction,
 * records without a value last (by id in the direction).
 */
export const expectedOrder = (
  records: ReadonlyArray<{ readonly id: string; readonly key: SortKey | undefined }>,
  direction: OrderDirection
): Array<string> => sortByKey(records, direction).map((r) => r.id)
