/**
 * What a distributed PostgreSQL (Citus) needs to shard Wasl on `account_id`, checked on the
 * migrated schema: every primary key and unique index of a tenant table leads with `account_id`,
 * and every foreign key between two tenant tables joins on it first, so an account's rows and the
 * references between them live on one shard. The tables that hold no account's rows, or hold
 * them before their account is known, are declared here with the reason, and kept few.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { MigrationsLive } from "../../src/db/database.ts"
import { TestDatabase } from "../../src/db/test-database.ts"

/** The tables that are not an account's, each with why (Citus: reference or local tables). */
const GLOBAL_TABLES: Readonly<Record<string, string>> = {
  accounts: "the tenants themselves: its id is every other table's account_id (distributed on id)",
  users: "a user belongs to several accounts (a reference table)",
  email_tokens: "a user's e-mail confirmation links, followed before any account is chosen",
  two_factor_logins: "a sign-in waiting for its second factor, before any account is chosen",
  rate_limit_buckets: "keyed by the limited caller, an address or a token, not by an account",
  whatsapp_inbox: "Meta's deliveries as received, before their number is matched to an account",
  wasl_migrations: "the schema's own version"
}

interface Key {
  readonly table: string
  readonly name: string
  readonly columns: ReadonlyArray<string>
}

interface Reference extends Key {
  readonly target: string
  readonly targetColumns: ReadonlyArray<string>
}

describe.each(TestDatabase.variants)("on $name", ({ enabled, layer: database }) => {
  describe.runIf(enabled)("tenant keys", () => {
    layer(MigrationsLive.pipe(Layer.provideMerge(database)), { excludeTestServices: true })((it) => {
      const catalog = Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const tables = (yield* sql<{ table: string }>`
          SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
          ORDER BY 1`).map((row) => row.table)
        const keys = yield* sql<Key>`
          SELECT t.relname AS table, i.relname AS name,
                 array(SELECT CASE WHEN k.attnum = 0 THEN '(expression)' ELSE a.attname END
                       FROM unnest(ix.indkey) WITH ORDINALITY AS k (attnum, position)
                       LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                       ORDER BY k.position) AS columns
          FROM pg_index ix
          JOIN pg_class i ON i.oid = ix.indexrelid
          JOIN pg_class t ON t.oid = ix.indrelid
          JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = current_schema() AND ix.indisunique
          ORDER BY 1, 2`
        const references = yield* sql<Reference>`
          SELECT t.relname AS table, c.conname AS name, f.relname AS target,
                 array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k (attnum, position)
                       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                       ORDER BY k.position) AS columns,
                 array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k (attnum, position)
                       JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum
                       ORDER BY k.position) AS "targetColumns"
          FROM pg_constraint c
          JOIN pg_class t ON t.oid = c.conrelid
          JOIN pg_class f ON f.oid = c.confrelid
          JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = current_schema() AND c.contype = 'f'
          ORDER BY 1, 2`
        return { tables, keys, references }
      })

      const isTenant = (table: string) => !(table in GLOBAL_TABLES)

      it.effect("every primary key and unique index of a tenant table leads with account_id", () =>
        Effect.gen(function*() {
          const { keys } = yield* catalog
          const wrong = keys
            .filter((key) => isTenant(key.table) && key.columns[0] !== "account_id")
            .map((key) => `${key.table}.${key.name} (${key.columns.join(", ")})`)
          assert.deepStrictEqual(wrong, [])
        }))

      it.effect("every tenant table has a primary key", () =>
        Effect.gen(function*() {
          const { keys, tables } = yield* catalog
          const keyed = new Set(keys.filter((key) => key.name.endsWith("_pkey")).map((key) => key.table))
          assert.deepStrictEqual(tables.filter((table) => isTenant(table) && !keyed.has(table)), [])
        }))

      it.effect("a reference between two tenant tables joins on account_id first", () =>
        Effect.gen(function*() {
          const { references } = yield* catalog
          const wrong = references
            .filter((ref) => isTenant(ref.table) && isTenant(ref.target))
            .filter((ref) => ref.columns[0] !== "account_id" || ref.targetColumns[0] !== "account_id")
            .map((ref) => `${ref.table}.${ref.name} (${ref.columns.join(", ")}) → ${ref.target} (${ref.targetColumns.join(", ")})`)
          assert.deepStrictEqual(wrong, [])
        }))

      it.effect("the declared global tables exist", () =>
        Effect.gen(function*() {
          const { tables } = yield* catalog
          for (const table of Object.keys(GLOBAL_TABLES)) assert.include(tables, table)
        }))
    })
  })
})
