/**
 * Migration 0027 on a database that already holds messages, on PGlite and PostgreSQL: a message
 * whose contact was deleted before 0024 (so it got no channel entry) gets an id per contact,
 * number and recipient, so that every message names a channel entry from then on.
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

const upTo0024 = PgMigrator.make({})({
  loader: Effect.map(migrations, (all) => all.filter(([id]) => id <= 24)),
  table: migrationsTable
})

describe.each(TestDatabase.variants)("on $name", ({ enabled, layer: database }) => {
  describe.runIf(enabled)("migration 0027", () => {
    layer(
      RepositoriesPg.pipe(Layer.provide(SecureRandom.layerWebCrypto), Layer.provideMerge(database)),
      { excludeTestServices: true }
    )((it) => {
      it.effect("gives the messages without a channel entry one per contact, number and recipient, then requires it", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* upTo0024
          const accountId = yield* accountWithCredits(0)
          // The number and its broadcast as 0008 stores them: the repositories write today's columns.
          const [platform] = yield* sql<{ id: number }>`
            INSERT INTO platforms (account_id, name, display_phone_number, provider, created_at, updated_at)
            VALUES (${accountId}, 'Sandbox', '+966110000000', 'sandbox', now(), now()) RETURNING id`
          const [template] = yield* sql<{ id: number }>`
            INSERT INTO message_templates (account_id, name, category, body, created_at, updated_at)
            VALUES (${accountId}, 'hello', 'UTILITY', 'Hello', now(), now()) RETURNING id`
          const [broadcast] = yield* sql<{ id: number }>`
            INSERT INTO broadcasts (account_id, name, language, template_id, platform_id, status, created_at, updated_at)
            VALUES (${accountId}, 'Hello', 'en', ${template!.id}, ${platform!.id}, 'APPROVED', now(), now()) RETURNING id`
          const gone = freshRecordId()
          const insert = (id: string, contactId: string, receiver: string) =>
            sql`
              INSERT INTO messages (account_id, id, provider_message_id, contact_id, broadcast_id, platform_id,
                platform_third_party_id, sender_third_party_id, receiver_third_party_id, status, body, created_at, updated_at)
              VALUES (${accountId}, ${id}, ${`wamid.${id}`}, ${contactId}, ${broadcast!.id}, ${platform!.id},
                '966110000000', '966110000000', ${receiver}, 'sent', 'Hello', now(), now())
            `
          const [a, b, c] = [freshRecordId(), freshRecordId(), freshRecordId()]
          yield* insert(a, gone, "966500000001")
          yield* insert(b, gone, "966500000001")
          yield* insert(c, gone, "966500000002")

          const applied = yield* runMigrations
          assert.include(applied.map(([id]) => id), 27)
          const rows = yield* sql<{ id: string; contact_channel_id: string }>`
            SELECT id, contact_channel_id FROM messages WHERE account_id = ${accountId}`
          const channel = new Map(rows.map((r) => [r.id, r.contact_channel_id]))
          for (const id of [a, b, c]) assert.match(channel.get(id)!, /^[0-9a-f]{24}$/)
          assert.strictEqual(channel.get(a), channel.get(b))
          assert.notStrictEqual(channel.get(a), channel.get(c))
          const refused = yield* Effect.exit(insert(freshRecordId(), gone, "966500000003"))
          assert.isTrue(refused._tag === "Failure")
        }))
    })
  })
})
