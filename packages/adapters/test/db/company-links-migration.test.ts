/**
 * Migration 0052 on a database that already holds custom properties, on PGlite and PostgreSQL: a
 * custom property taking a name that becomes a built-in of its kind (a company's `contact_ids`,
 * a ticket's `company_ids`) is renamed `<name>_<first 8 of its id>`, and one of a kind where the
 * name stays free keeps it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { PgMigrator } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { SqlClient } from "effect/sql"
import { migrationsTable, runMigrations } from "../../src/db/database.ts"
import { migrations } from "../../src/db/migrations/index.ts"
import { TestDatabase } from "../../src/db/test-database.ts"
import { RepositoriesPg } from "../../src/pg/index.ts"
import { accountWithCredits, freshRecordId } from "../../src/testing/otp-fixtures.ts"

const upTo0051 = PgMigrator.make({})({
  loader: Effect.map(migrations, (all) => all.filter(([id]) => id <= 51)),
  table: migrationsTable
})

describe.each(TestDatabase.variants)("on $name", ({ enabled, layer: database }) => {
  describe.runIf(enabled)("migration 0052", () => {
    layer(
      RepositoriesPg.pipe(Layer.provide(SecureRandom.layerWebCrypto), Layer.provideMerge(database)),
      { excludeTestServices: true }
    )((it) => {
      it.effect("renames the custom properties whose names become built-ins of their kind, and only those", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* upTo0051
          const accountId = yield* accountWithCredits(0)
          const group = freshRecordId()
          const property = (kind: string, name: string) =>
            Effect.gen(function*() {
              const id = freshRecordId()
              yield* sql`
                INSERT INTO properties (account_id, id, kind, internal_name, type, name, group_id, created_at, updated_at)
                VALUES (${accountId}, ${id}, ${kind}, ${name}, 'string', '{"en":"x","ar":"x"}', ${group}, now(), now())`
              return id
            })
          const companyContacts = yield* property("company", "contact_ids")
          const ticketCompanies = yield* property("ticket", "company_ids")
          const contactContacts = yield* property("contact", "contact_ids")

          const applied = yield* runMigrations
          assert.include(applied.map(([id]) => id), 52)
          const rows = yield* sql<{ id: string; internal_name: string }>`
            SELECT id, internal_name FROM properties WHERE account_id = ${accountId}`
          const names = new Map(rows.map((r) => [r.id, r.internal_name]))
          assert.strictEqual(names.get(companyContacts), `contact_ids_${companyContacts.slice(0, 8)}`)
          assert.strictEqual(names.get(ticketCompanies), `company_ids_${ticketCompanies.slice(0, 8)}`)
          assert.strictEqual(names.get(contactContacts), "contact_ids")
        }))
    })
  })
})
