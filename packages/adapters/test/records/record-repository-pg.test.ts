/**
 * RecordRepositoryPg's own machinery, beyond what the record contracts check over every adapter
 * of the `RecordRepository` port (test/records/record-repository.test.ts): the side rows of
 * custom values (gone with their record or account, rebuilt after a type change), exact totals (the
 * counter under concurrent and bulk writes), and values that never become SQL text.
 *
 * On PGlite always, on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { assert, describe, layer } from "@effect/vitest"
import {
  type Condition,
  coerceInstant,
  type RecordListParams,
  RecordRepository,
  type RecordWithDerived
} from "@wasl/core/Records"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { TestDatabase } from "../../src/db/test-database.ts"
import { dropPropertyValues, rebuildPropertyValues } from "../../src/pg/records/custom-value-rows.ts"
import { listStatement } from "../../src/pg/records/list-statement.ts"
import { type CustomProperty, recordMapping } from "../../src/pg/records/storage.ts"
import { condition as cond, listInput } from "../../src/testing/record-contract-support.ts"
import { definitionsOf, newAccount, newId, storeOn } from "./fixtures.ts"

const ids = (rows: ReadonlyArray<RecordWithDerived>) => rows.map((r) => r.record._id)
const sorted = (xs: ReadonlyArray<string>) => [...xs].sort()

const NOTE: CustomProperty = { id: newId(), internal_name: "note", type: "textarea" }
const SCORE: CustomProperty = { id: newId(), internal_name: "score", type: "number" }
const TAGS: CustomProperty = { id: newId(), internal_name: "tags", type: "multi_select" }
const DEAL_CUSTOM = definitionsOf("deal", [NOTE, SCORE, TAGS])

describe.each(TestDatabase.variants)("RecordRepositoryPg on $name", ({ enabled, layer: database }) => {
  describe.runIf(enabled)("", () => {
    layer(storeOn(database), { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      /** A page of the account's deals: 100 newest first unless `params` say otherwise. */
      const list = (
        accountId: number,
        custom: typeof DEAL_CUSTOM,
        params: Partial<RecordListParams> = {}
      ) => RecordRepository.use((repo) => repo.list(listInput(accountId, "deal", custom, params)))

      it.effect("delete: removes the record, its custom values, links and notes; totals follow", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RecordRepository
          const accountId = yield* newAccount
          const [deal, contact] = [newId(), newId()]
          yield* store.insert({ accountId, kind: "contact", id: contact!, custom: [], values: {} })
          yield* store.insert({ accountId, kind: "deal", id: deal!, custom: DEAL_CUSTOM, values: { deal_name: "D", score: 3, tags: ["x"] } })
          yield* store.link({ accountId, link: "deal_contact", from: deal!, to: contact! })
          yield* sql`INSERT INTO notes (account_id, id, object_type, record_id, body, created_at, updated_at)
            VALUES (${accountId}, ${newId()}, 'deal', ${deal!}, 'hello', now(), now())`
          assert.strictEqual((yield* list(accountId, DEAL_CUSTOM)).total, 1)
          assert.isFalse(yield* store.delete({ accountId: yield* newAccount, kind: "deal", id: deal! }), "not another account's")
          assert.isTrue(yield* store.delete({ accountId, kind: "deal", id: deal! }))
          assert.isFalse(yield* store.delete({ accountId, kind: "deal", id: deal! }))
          assert.isTrue(Option.isNone(yield* store.get({ accountId, kind: "deal", id: deal!, custom: DEAL_CUSTOM })))
          const [left] = yield* sql<{ values: number; elements: number; links: number; notes: number }>`
            SELECT (SELECT count(*) FROM record_values WHERE account_id = ${accountId})::int AS values,
                   (SELECT count(*) FROM record_value_elements WHERE account_id = ${accountId})::int AS elements,
                   (SELECT count(*) FROM deal_contacts WHERE account_id = ${accountId})::int AS links,
                   (SELECT count(*) FROM notes WHERE account_id = ${accountId})::int AS notes`
          assert.deepStrictEqual(left, { values: 0, elements: 0, links: 0, notes: 0 })
          assert.strictEqual((yield* list(accountId, DEAL_CUSTOM)).total, 0)
        }))

      it.effect("totals are exact: concurrent inserts, deletes and a bulk INSERT … SELECT", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RecordRepository
          const accountId = yield* newAccount
          const dealIds = Array.from({ length: 24 }, newId)
          yield* Effect.forEach(
            dealIds,
            (id) => store.insert({ accountId, kind: "deal", id, custom: DEAL_CUSTOM, values: { deal_name: id, score: 1 } }),
            { concurrency: 8, discard: true }
          )
          yield* Effect.forEach(dealIds.slice(0, 5), (id) => store.delete({ accountId, kind: "deal", id }), {
            concurrency: 5,
            discard: true
          })
          yield* sql`INSERT INTO deals (account_id, id, deal_name, created_at, updated_at)
            SELECT ${accountId}, lpad(to_hex(g), 24, '0'), 'bulk ' || g, now(), now() FROM generate_series(1, 300) g`
          const total = (yield* list(accountId, DEAL_CUSTOM)).total
          const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM deals WHERE account_id = ${accountId}`
          assert.strictEqual(n, 319)
          assert.strictEqual(total, 319)
          const bulk = yield* list(accountId, DEAL_CUSTOM, { search: "bulk", perPage: 7, page: 3 })
          assert.strictEqual(bulk.total, 300)
          assert.strictEqual(bulk.rows.length, 7)
          const far = yield* list(accountId, DEAL_CUSTOM, { order: "score", page: Number.MAX_SAFE_INTEGER, perPage: 100 })
          assert.deepStrictEqual([far.total, far.rows.length], [319, 0])
        }))

      it.effect("deleting an account takes its records, counters, values and links with it", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RecordRepository
          const a = yield* newAccount
          const [deal, contact] = [newId(), newId()]
          yield* store.insert({ accountId: a, kind: "deal", id: deal!, custom: DEAL_CUSTOM, values: { deal_name: "A", score: 1, tags: ["x"] } })
          yield* store.insert({ accountId: a, kind: "contact", id: contact!, custom: [], values: {} })
          assert.isTrue(yield* store.link({ accountId: a, link: "deal_contact", from: deal!, to: contact! }))
          yield* sql`DELETE FROM accounts WHERE id = ${a}`
          const [{ left }] = yield* sql<{ left: number }>`
            SELECT ((SELECT count(*) FROM deals WHERE account_id = ${a}) + (SELECT count(*) FROM record_counts WHERE account_id = ${a})
              + (SELECT count(*) FROM record_values WHERE account_id = ${a})
              + (SELECT count(*) FROM record_value_elements WHERE account_id = ${a})
              + (SELECT count(*) FROM deal_contacts WHERE account_id = ${a}))::int AS left`
          assert.strictEqual(left, 0)
        }))

      it.effect("a custom property's side rows are rebuilt after a type change, and dropped with it", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RecordRepository
          const accountId = yield* newAccount
          const asText: CustomProperty = { id: newId(), internal_name: "size", type: "string" }
          const tags: CustomProperty = { id: newId(), internal_name: "labels", type: "multi_select" }
          const due: CustomProperty = { id: newId(), internal_name: "due", type: "date" }
          const [a, b, c] = [newId(), newId(), newId()]
          const custom = definitionsOf("deal", [asText, tags, due])
          yield* store.insert({ accountId, kind: "deal", id: a!, custom, values: { size: "1", labels: ["x", "y"], due: "2026-01-02" } })
          yield* store.insert({ accountId, kind: "deal", id: b!, custom, values: { size: "2.5", labels: ["y"] } })
          yield* store.insert({ accountId, kind: "deal", id: c!, custom, values: {} })
          // The type change: the core converts the stored values (here in SQL), then the side rows follow.
          yield* sql`UPDATE deals SET custom = jsonb_set(custom, ARRAY[${asText.id}::text], to_jsonb((custom ->> ${asText.id}::text)::float8))
            WHERE account_id = ${accountId} AND custom ? ${asText.id}::text`
          const asNumber: CustomProperty = { ...asText, type: "number" }
          const numbered = definitionsOf("deal", [asNumber, tags, due])
          assert.strictEqual(yield* rebuildPropertyValues(sql, { accountId, kind: "deal", property: asNumber }), 2)
          assert.strictEqual(yield* rebuildPropertyValues(sql, { accountId, kind: "deal", property: tags }), 2)
          assert.strictEqual(yield* rebuildPropertyValues(sql, { accountId, kind: "deal", property: due }), 1)
          const find = (c: Condition, order = "created_at") =>
            list(accountId, numbered, { filters: [c], order }).pipe(Effect.map((r) => sorted(ids(r.rows))))
          assert.deepStrictEqual(yield* find(cond("size", "number", "gt", 2)), [b!])
          assert.deepStrictEqual(yield* find(cond("labels", "multi_select", "eq", "Y")), sorted([a!, b!]))
          assert.deepStrictEqual(yield* find(cond("due", "date", "eq", coerceInstant("2026-01-02", "date")!)), [a!])
          const byLabels = yield* list(accountId, numbered, { order: "labels" })
          assert.deepStrictEqual(ids(byLabels.rows), [b!, a!, c!], "[y] after [x, y] descending; none last")
          assert.strictEqual(Option.getOrThrow(yield* store.get({ accountId, kind: "deal", id: b!, custom: numbered })).record.values.size, 2.5)

          assert.strictEqual(yield* dropPropertyValues(sql, { accountId, kind: "deal", property: tags }), 2)
          const gone = Option.getOrThrow(yield* store.get({ accountId, kind: "deal", id: a!, custom: numbered }))
          assert.deepStrictEqual(gone.record.values, { size: 1, due: "2026-01-02" })
          assert.deepStrictEqual(yield* find(cond("labels", "multi_select", "is_empty")), sorted([a!, b!, c!]))
        }))

      it.effect("values, search text and custom names never become SQL text", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const accountId = yield* newAccount
          const evil = "'; DROP TABLE deals; --"
          const custom: ReadonlyArray<CustomProperty> = [{ id: newId(), internal_name: "x\"; DROP TABLE deals; --", type: "string" }]
          const spec = {
            accountId,
            filters: [
              cond("deal_name", "string", "eq", evil),
              { _tag: "Or" as const, conditions: [cond(custom[0]!.internal_name, "string", "contains", evil)] }
            ],
            search: `%${evil}`,
            order: custom[0]!.internal_name,
            direction: "asc" as const,
            page: 1,
            perPage: 15
          }
          const [text, params] = listStatement(sql, recordMapping("deal", custom), spec).compile()
          assert.notInclude(text, "DROP")
          assert.include(params, evil)
          assert.include(params, custom[0]!.id)
          const result = yield* list(accountId, definitionsOf("deal", custom), spec)
          assert.strictEqual(result.total, 0)
          const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM deals WHERE account_id = ${accountId}`
          assert.strictEqual(n, 0)
        }))
    })
  })
})
