/**
 * Shared pieces of the record store tests: the layer over a database variant, accounts, ids,
 * and the reference ordering of decisions §4 (the expected order the SQL must produce).
 */
import { parseDateInput } from "@wasl/core"
import { DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { MigrationsLive } from "../../src/db/database.ts"
import { RecordStorePg } from "../../src/pg/records/record-store-pg.ts"

/** The record store and the raw client over a migrated database. */
export const storeOn = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  RecordStorePg.layer.pipe(Layer.provideMerge(MigrationsLive), Layer.provideMerge(database))

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

const codePoints = (s: string): Array<number> => Array.from(s, (c) => c.codePointAt(0)!)

/** Code-point order (PostgreSQL's `COLLATE "C"` on UTF-8). */
export const compareCodePoints = (a: string, b: string): number => {
  const x = codePoints(a)
  const y = codePoints(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

const firstChars = (s: string, n: number) => Array.from(s).slice(0, n).join("")

const isNoValue = (v: unknown) =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0)

/** The sort key of a value (undefined: no value), as the SQL orders it. */
export const sortKey = (type: OrderType, value: unknown): string | number | undefined => {
  if (isNoValue(value)) return undefined
  switch (type) {
    case "number":
      return (value as number) + 0
    case "boolean":
      return value === true ? 1 : 0
    case "datetime":
      return DateTime.toEpochMillis(Option.getOrThrow(parseDateInput(value)))
    case "date":
      return String(value)
    case "text":
      return firstChars(String(value).toLowerCase(), 255)
    case "set": {
      const elements = [...new Set((value as ReadonlyArray<string>).map((e) => e.toLowerCase()))].sort(compareCodePoints)
      return firstChars(elements.join("\u0001"), 255)
    }
  }
}

const compareKeys = (a: string | number, b: string | number): number =>
  typeof a === "number" && typeof b === "number" ? (a < b ? -1 : a > b ? 1 : 0) : compareCodePoints(String(a), String(b))

/**
 * Ids in the order of decisions §4: by the key in the direction, ties by id in the same direction,
 * records without a value last (by id in the direction).
 */
export const expectedOrder = (
  records: ReadonlyArray<{ readonly id: string; readonly key: string | number | undefined }>,
  direction: "asc" | "desc"
): Array<string> => {
  const sign = direction === "asc" ? 1 : -1
  return [...records].sort((a, b) => {
    if (a.key === undefined || b.key === undefined) {
      if (a.key !== undefined) return -1
      if (b.key !== undefined) return 1
    } else {
      const byKey = compareKeys(a.key, b.key)
      if (byKey !== 0) return sign * byKey
    }
    return sign * compareCodePoints(a.id, b.id)
  }).map((r) => r.id)
}
