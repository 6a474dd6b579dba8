/**
 * RecordStorePg beyond the generated cases: derived values (contact fullname and deal_ids, ticket
 * link counters), contact search, dates, updates, deletes and what goes with them, long texts,
 * exact totals (the counter under concurrent and bulk writes), tenancy, and parameters only.
 *
 * On PGlite always, on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { assert, describe, layer } from "@effect/vitest"
import { type Condition, coerceInstant, type FilterScalar, type FilterValueType, matchesFilters } from "@wasl/core"
import { DateTime, Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { TestDatabase } from "../../src/db/test-database.ts"
import { compileList } from "../../src/pg/records/filter-sql.ts"
import { type RecordListQuery, RecordStorePg } from "../../src/pg/records/record-store-pg.ts"
import { type CustomProperty, recordMapping } from "../../src/pg/records/storage.ts"
import { newAccount, newId, storeOn } from "./fixtures.ts"

const cond = (property: string, type: FilterValueType, operator: Condition["operator"], value?: FilterScalar | ReadonlyArray<FilterScalar>) =>
  (value === undefined
    ? { _tag: "Condition", property, type, operator }
    : { _tag: "Condition", property, type, operator, value }) as Condition

const ids = (rows: ReadonlyArray<{ readonly _id: string }>) => rows.map((r) => r._id)
const sorted = (xs: ReadonlyArray<string>) => [...xs].sort()

const NOTE: CustomProperty = { id: newId(), internal_name: "note", type: "textarea" }
const SCORE: CustomProperty = { id: newId(), internal_name: "score", type: "number" }
const TAGS: CustomProperty = { id: newId(), internal_name: "tags", type: "multi_select" }
const DEAL_CUSTOM = [NOTE, SCORE, TAGS]

describe.each(TestDatabase.variants)("RecordStorePg on $name", ({ enabled, layer: database }) => {
  describe.runIf(enabled)("", () => {
    layer(storeOn(database), { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      const list = (input: RecordListQuery) =>
        Effect.gen(function*() {
          return yield* (yield* RecordStorePg).list(input)
        })

      it.effect("contacts: fullname is derived, search covers fullname, email, phone and WhatsApp number", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const ada = newId()
          const grace = newId()
          const underscore = newId()
          const nameless = newId()
          const row = yield* store.insert({
            accountId,
            kind: "contact",
            id: ada,
            custom: [],
            values: { firstname: "Ada", lastname: "Lovelace", email: "ADA@Example.com", phone: "+966501234567" }
          })
          assert.strictEqual(row.derived.fullname, "Ada Lovelace")
          assert.deepStrictEqual(row.derived.deal_ids, [])
          assert.strictEqual(row.values.email, "ADA@Example.com")
          const g = yield* store.insert({
            accountId,
            kind: "contact",
            id: grace,
            custom: [],
            values: { firstname: "Grace", middlename: "Brewster", lastname: "Hopper", whatsapp_number: "+15550001111" }
          })
          assert.strictEqual(g.derived.fullname, "Grace Brewster Hopper")
          yield* store.insert({ accountId, kind: "contact", id: underscore, custom: [], values: { email: "a_b@x.io", lastname: "" } })
          const n = yield* store.insert({ accountId, kind: "contact", id: nameless, custom: [], values: { email: "axb@x.io" } })
          assert.isUndefined(n.derived.fullname)

          const search = (s: string) =>
            list({ accountId, kind: "contact", custom: [], search: s, perPage: 100 }).pipe(Effect.map((r) => sorted(ids(r.rows))))
          assert.deepStrictEqual(yield* search("lovelace"), [ada])
          assert.deepStrictEqual(yield* search("ADA LOVE"), [ada])
          assert.deepStrictEqual(yield* search("example.COM"), [ada])
          assert.deepStrictEqual(yield* search("0123"), [ada])
          assert.deepStrictEqual(yield* search("5550001"), [grace])
          assert.deepStrictEqual(yield* search("ce brewster ho"), [grace])
          // LIKE metacharacters are literal.
          assert.deepStrictEqual(yield* search("a_b"), [underscore])
          assert.deepStrictEqual(yield* search("%"), [])
          // The indexed concatenation holds "example.com\n+966...": no match across two fields.
          assert.deepStrictEqual(yield* search("example.com\n+966"), [])
          assert.deepStrictEqual(yield* search("lovelace hopper"), [])

          const byName = yield* list({
            accountId,
            kind: "contact",
            custom: [],
            filters: [cond("fullname", "string", "eq", "grace brewster HOPPER")]
          })
          assert.deepStrictEqual(ids(byName.rows), [grace])
          const ordered = yield* list({ accountId, kind: "contact", custom: [], order: "fullname", direction: "desc" })
          assert.deepStrictEqual(ids(ordered.rows), [grace, ada, ...sorted([underscore, nameless]).reverse()])
        }))

      it.effect("contacts: deal_ids come from the links, filter and order as a set", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const [c1, c2, c3] = [newId(), newId(), newId()]
          const [d1, d2] = [newId(), newId()].sort()
          for (const id of [c1, c2, c3]) yield* store.insert({ accountId, kind: "contact", id: id!, custom: [], values: {} })
          for (const id of [d1, d2]) {
            yield* store.insert({ accountId, kind: "deal", id: id!, custom: [], values: { deal_name: "D" } })
          }
          assert.isTrue(yield* store.link({ accountId, link: "deal_contact", from: d1!, to: c1! }))
          assert.isFalse(yield* store.link({ accountId, link: "deal_contact", from: d1!, to: c1! }), "idempotent")
          assert.isTrue(yield* store.link({ accountId, link: "deal_contact", from: d2!, to: c1! }))
          assert.isTrue(yield* store.link({ accountId, link: "deal_contact", from: d2!, to: c2! }))
          const got = yield* store.get({ accountId, kind: "contact", id: c1!, custom: [] })
          assert.deepStrictEqual(Option.getOrThrow(got).derived.deal_ids, [d1, d2])

          const filter = (c: Condition) =>
            list({ accountId, kind: "contact", custom: [], filters: [c] }).pipe(Effect.map((r) => sorted(ids(r.rows))))
          assert.deepStrictEqual(yield* filter(cond("deal_ids", "multi_select", "eq", d2!)), sorted([c1!, c2!]))
          assert.deepStrictEqual(yield* filter(cond("deal_ids", "multi_select", "neq", d2!)), [])
          assert.deepStrictEqual(yield* filter(cond("deal_ids", "multi_select", "not_in", [d1!])), [c2!])
          assert.deepStrictEqual(yield* filter(cond("deal_ids", "multi_select", "is_empty")), [c3!])
          const deals = yield* list({ accountId, kind: "deal", custom: [], filters: [cond("contact_ids", "record_ids", "in", [c2!])] })
          assert.deepStrictEqual(ids(deals.rows), [d2!])

          // Ordered by the sorted set: [d1, d2] < [d2]; no links last.
          const ordered = yield* list({ accountId, kind: "contact", custom: [], order: "deal_ids", direction: "asc" })
          assert.deepStrictEqual(ids(ordered.rows), [c1!, c2!, c3!])
          assert.isTrue(yield* store.unlink({ accountId, link: "deal_contact", from: d2!, to: c1! }))
          assert.isFalse(yield* store.unlink({ accountId, link: "deal_contact", from: d2!, to: c1! }))
          const after = yield* store.get({ accountId, kind: "contact", id: c1!, custom: [] })
          assert.deepStrictEqual(Option.getOrThrow(after).derived.deal_ids, [d1])
        }))

      it.effect("tickets: contacts_count and deals_count follow links, unlinks and deleted records", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const [t, c1, c2, d] = [newId(), newId(), newId(), newId()]
          yield* store.insert({ accountId, kind: "ticket", id: t!, custom: [], values: { ticket_name: "T", desc: "Long text" } })
          yield* store.insert({ accountId, kind: "contact", id: c1!, custom: [], values: {} })
          yield* store.insert({ accountId, kind: "contact", id: c2!, custom: [], values: {} })
          yield* store.insert({ accountId, kind: "deal", id: d!, custom: [], values: { deal_name: "D" } })
          const counts = Effect.map(
            store.get({ accountId, kind: "ticket", id: t!, custom: [] }),
            (r) => [Option.getOrThrow(r).derived.contacts_count, Option.getOrThrow(r).derived.deals_count]
          )
          assert.deepStrictEqual(yield* counts, [0, 0])
          yield* store.link({ accountId, link: "ticket_contact", from: t!, to: c1! })
          yield* store.link({ accountId, link: "ticket_contact", from: t!, to: c1! })
          yield* store.link({ accountId, link: "ticket_contact", from: t!, to: c2! })
          yield* store.link({ accountId, link: "ticket_deal", from: t!, to: d! })
          assert.deepStrictEqual(yield* counts, [2, 1])
          const withTwo = yield* list({ accountId, kind: "ticket", custom: [], filters: [cond("contacts_count", "number", "eq", 2)] })
          assert.deepStrictEqual(ids(withTwo.rows), [t!])
          yield* store.unlink({ accountId, link: "ticket_contact", from: t!, to: c1! })
          assert.deepStrictEqual(yield* counts, [1, 1])
          assert.isTrue(yield* store.delete({ accountId, kind: "contact", id: c2! }))
          assert.isTrue(yield* store.delete({ accountId, kind: "deal", id: d! }))
          assert.deepStrictEqual(yield* counts, [0, 0])
          const t2 = Option.getOrThrow(yield* store.get({ accountId, kind: "ticket", id: t!, custom: [] }))
          assert.strictEqual(t2.values.desc, "Long text")
        }))

      it.effect("invoices: dates compare and order by calendar day", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const [a, b, c] = [newId(), newId(), newId()]
          const row = yield* store.insert({
            accountId,
            kind: "invoice",
            id: a!,
            custom: [],
            values: { invoice_number: "INV-1", due_date: "2026-03-05", status: "sent", amount: 10 }
          })
          assert.strictEqual(row.values.due_date, "2026-03-05")
          yield* store.insert({
            accountId,
            kind: "invoice",
            id: b!,
            custom: [],
            values: { invoice_number: "INV-2", due_date: DateTime.makeUnsafe("2026-03-06T23:00:00Z") }
          })
          yield* store.insert({ accountId, kind: "invoice", id: c!, custom: [], values: { invoice_number: "INV-3" } })
          const day = (s: string) => coerceInstant(s, "date")!
          const on = yield* list({ accountId, kind: "invoice", custom: [], filters: [cond("due_date", "date", "eq", day("2026-03-05T18:00:00Z"))] })
          assert.deepStrictEqual(ids(on.rows), [a!])
          const after = yield* list({ accountId, kind: "invoice", custom: [], filters: [cond("due_date", "date", "gt", day("2026-03-05"))] })
          assert.deepStrictEqual(ids(after.rows), [b!])
          const ordered = yield* list({ accountId, kind: "invoice", custom: [], order: "due_date", direction: "desc" })
          assert.deepStrictEqual(ids(ordered.rows), [b!, a!, c!])
          const search = yield* list({ accountId, kind: "invoice", custom: [], search: "inv-2" })
          assert.deepStrictEqual(ids(search.rows), [b!])
        }))

      it.effect("update: a patch sets and clears built-in and custom values, and their side rows", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const other = yield* newAccount
          const id = newId()
          const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
          yield* store.insert({
            accountId,
            kind: "deal",
            id,
            custom: DEAL_CUSTOM,
            values: { deal_name: "Old", amount: 5, note: "first", score: 1, tags: ["a", "b", "a"] },
            at: t0
          })
          const byTag = (tag: string) =>
            list({ accountId, kind: "deal", custom: DEAL_CUSTOM, filters: [cond("tags", "multi_select", "contains", tag)] })
              .pipe(Effect.map((r) => r.total))
          assert.strictEqual(yield* byTag("b"), 1)
          const updated = Option.getOrThrow(
            yield* store.update({
              accountId,
              kind: "deal",
              id,
              custom: DEAL_CUSTOM,
              values: { amount: null, next_steps: "call", score: null, tags: ["c"], note: "second" },
              at: DateTime.makeUnsafe("2026-01-02T00:00:00Z")
            })
          )
          assert.deepStrictEqual(updated.values, { deal_name: "Old", next_steps: "call", note: "second", tags: ["c"] })
          assert.strictEqual(DateTime.formatIso(updated.created_at), "2026-01-01T00:00:00.000Z")
          assert.strictEqual(DateTime.formatIso(updated.updated_at), "2026-01-02T00:00:00.000Z")
          assert.strictEqual(yield* byTag("b"), 0)
          assert.strictEqual(yield* byTag("c"), 1)
          const scored = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, filters: [cond("score", "number", "is_empty")] })
          assert.strictEqual(scored.total, 1)
          const noted = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, filters: [cond("note", "textarea", "eq", "FIRST")] })
          assert.strictEqual(noted.total, 0)
          // Another account's update finds nothing and changes nothing.
          const foreign = yield* store.update({ accountId: other, kind: "deal", id, custom: DEAL_CUSTOM, values: { deal_name: "X" } })
          assert.isTrue(Option.isNone(foreign))
          const same = Option.getOrThrow(yield* store.get({ accountId, kind: "deal", id, custom: DEAL_CUSTOM }))
          assert.strictEqual(same.values.deal_name, "Old")
        }))

      it.effect("delete: removes the record, its custom values, links and notes; totals follow", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const [deal, contact] = [newId(), newId()]
          yield* store.insert({ accountId, kind: "contact", id: contact!, custom: [], values: {} })
          yield* store.insert({ accountId, kind: "deal", id: deal!, custom: DEAL_CUSTOM, values: { deal_name: "D", score: 3, tags: ["x"] } })
          yield* store.link({ accountId, link: "deal_contact", from: deal!, to: contact! })
          yield* sql`INSERT INTO notes (account_id, id, object_type, record_id, body, created_at, updated_at)
            VALUES (${accountId}, ${newId()}, 'deal', ${deal!}, 'hello', now(), now())`
          assert.strictEqual((yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM })).total, 1)
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
          assert.strictEqual((yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM })).total, 0)
        }))

      it.effect("totals are exact: concurrent inserts, deletes and a bulk INSERT … SELECT", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RecordStorePg
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
          const total = (yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM })).total
          const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM deals WHERE account_id = ${accountId}`
          assert.strictEqual(n, 319)
          assert.strictEqual(total, 319)
          const bulk = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, search: "bulk", perPage: 7, page: 3 })
          assert.strictEqual(bulk.total, 300)
          assert.strictEqual(bulk.rows.length, 7)
          const far = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, order: "score", page: Number.MAX_SAFE_INTEGER, perPage: 100 })
          assert.deepStrictEqual([far.total, far.rows.length], [319, 0])
        }))

      it.effect("tenancy: another account's records, values and links are invisible and cannot be linked", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RecordStorePg
          const a = yield* newAccount
          const b = yield* newAccount
          const [deal, contact] = [newId(), newId()]
          yield* store.insert({ accountId: a, kind: "deal", id: deal!, custom: DEAL_CUSTOM, values: { deal_name: "A", score: 1 } })
          yield* store.insert({ accountId: b, kind: "contact", id: contact!, custom: [], values: {} })
          assert.isTrue(Option.isNone(yield* store.get({ accountId: b, kind: "deal", id: deal!, custom: DEAL_CUSTOM })))
          assert.strictEqual((yield* list({ accountId: b, kind: "deal", custom: DEAL_CUSTOM })).total, 0)
          assert.strictEqual((yield* list({ accountId: b, kind: "deal", custom: DEAL_CUSTOM, order: "score" })).rows.length, 0)
          assert.isFalse(yield* store.link({ accountId: a, link: "deal_contact", from: deal!, to: contact! }))
          assert.isFalse(yield* store.link({ accountId: b, link: "deal_contact", from: deal!, to: contact! }))
          const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM deal_contacts WHERE deal_id = ${deal!}`
          assert.strictEqual(n, 0)
          // Deleting an account takes its records and counters with it.
          yield* sql`DELETE FROM accounts WHERE id = ${a}`
          const [{ left }] = yield* sql<{ left: number }>`
            SELECT ((SELECT count(*) FROM deals WHERE account_id = ${a}) + (SELECT count(*) FROM record_counts WHERE account_id = ${a})
              + (SELECT count(*) FROM record_values WHERE account_id = ${a}))::int AS left`
          assert.strictEqual(left, 0)
        }))

      it.effect("long texts (65,535 characters) are stored, filtered and ordered", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const long = "Ω".repeat(300) + "x".repeat(65_235)
          const longer = "Ω".repeat(300) + "y".repeat(65_235)
          const [a, b] = [newId(), newId()].sort()
          yield* store.insert({ accountId, kind: "deal", id: a!, custom: DEAL_CUSTOM, values: { deal_name: longer, note: long } })
          yield* store.insert({ accountId, kind: "deal", id: b!, custom: DEAL_CUSTOM, values: { deal_name: long, note: longer } })
          const eq = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, filters: [cond("note", "textarea", "eq", long.toLowerCase())] })
          assert.deepStrictEqual(ids(eq.rows), [a!])
          const name = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, filters: [cond("deal_name", "string", "in", [long])] })
          assert.deepStrictEqual(ids(name.rows), [b!])
          const ends = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, filters: [cond("note", "textarea", "ends_with", "XY")] })
          assert.deepStrictEqual(ids(ends.rows), [])
          // Equal in their first 255 characters: ordered by id.
          const ordered = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, order: "note", direction: "desc" })
          assert.deepStrictEqual(ids(ordered.rows), [b!, a!])
          assert.strictEqual(ordered.rows[1]!.values.note, long)
        }))

      it.effect("texts around the 255-character key: equality and lists agree with the evaluator", () =>
        Effect.gen(function*() {
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const texts = ["A".repeat(254), "a".repeat(255), "a".repeat(256), "a".repeat(255) + "b", "a".repeat(254) + "B"]
          const records = texts.map((text) => ({ id: newId(), values: { deal_name: text, note: text } }))
          for (const r of records) yield* store.insert({ accountId, kind: "deal", id: r.id, custom: DEAL_CUSTOM, values: r.values })
          const probes = [...texts, "a".repeat(253), "a".repeat(257)]
          for (const property of ["deal_name", "note"]) {
            const type = property === "note" ? "textarea" : "string"
            const conditions = [
              ...probes.flatMap((p) => [cond(property, type, "eq", p), cond(property, type, "neq", p)]),
              cond(property, type, "in", probes.slice(0, 2)),
              cond(property, type, "in", [probes[2]!, probes[5]!]),
              cond(property, type, "not_in", [probes[3]!, probes[6]!]),
              cond(property, type, "starts_with", "a".repeat(255))
            ]
            for (const c of conditions) {
              const expected = sorted(records.filter((r) => matchesFilters(r.values, [c])).map((r) => r.id))
              const got = yield* list({ accountId, kind: "deal", custom: DEAL_CUSTOM, filters: [c] })
              assert.deepStrictEqual(sorted(ids(got.rows)), expected, `${property} ${c.operator} ${JSON.stringify("value" in c ? c.value : null).length}`)
            }
          }
        }))

      it.effect("a custom property's side rows are rebuilt after a type change, and dropped with it", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const store = yield* RecordStorePg
          const accountId = yield* newAccount
          const asText: CustomProperty = { id: newId(), internal_name: "size", type: "string" }
          const tags: CustomProperty = { id: newId(), internal_name: "labels", type: "multi_select" }
          const due: CustomProperty = { id: newId(), internal_name: "due", type: "date" }
          const [a, b, c] = [newId(), newId(), newId()]
          const custom = [asText, tags, due]
          yield* store.insert({ accountId, kind: "deal", id: a!, custom, values: { size: "1", labels: ["x", "y"], due: "2026-01-02" } })
          yield* store.insert({ accountId, kind: "deal", id: b!, custom, values: { size: "2.5", labels: ["y"] } })
          yield* store.insert({ accountId, kind: "deal", id: c!, custom, values: {} })
          // The type change: the core converts the stored values (here in SQL), then the side rows follow.
          yield* sql`UPDATE deals SET custom = jsonb_set(custom, ARRAY[${asText.id}::text], to_jsonb((custom ->> ${asText.id}::text)::float8))
            WHERE account_id = ${accountId} AND custom ? ${asText.id}::text`
          const asNumber: CustomProperty = { ...asText, type: "number" }
          const numbered = [asNumber, tags, due]
          assert.strictEqual(yield* store.rebuildPropertyValues({ accountId, kind: "deal", property: asNumber }), 2)
          assert.strictEqual(yield* store.rebuildPropertyValues({ accountId, kind: "deal", property: tags }), 2)
          assert.strictEqual(yield* store.rebuildPropertyValues({ accountId, kind: "deal", property: due }), 1)
          const find = (c: Condition, order = "created_at") =>
            list({ accountId, kind: "deal", custom: numbered, filters: [c], order }).pipe(Effect.map((r) => sorted(ids(r.rows))))
          assert.deepStrictEqual(yield* find(cond("size", "number", "gt", 2)), [b!])
          assert.deepStrictEqual(yield* find(cond("labels", "multi_select", "eq", "Y")), sorted([a!, b!]))
          assert.deepStrictEqual(yield* find(cond("due", "date", "eq", coerceInstant("2026-01-02", "date")!)), [a!])
          const byLabels = yield* list({ accountId, kind: "deal", custom: numbered, order: "labels" })
          assert.deepStrictEqual(ids(byLabels.rows), [b!, a!, c!], "[y] after [x, y] descending; none last")
          assert.strictEqual(Option.getOrThrow(yield* store.get({ accountId, kind: "deal", id: b!, custom: numbered })).values.size, 2.5)

          assert.strictEqual(yield* store.dropPropertyValues({ accountId, kind: "deal", property: tags }), 2)
          const gone = Option.getOrThrow(yield* store.get({ accountId, kind: "deal", id: a!, custom: numbered }))
          assert.deepStrictEqual(gone.values, { size: 1, due: "2026-01-02" })
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
          const [text, params] = compileList(sql, recordMapping("deal", custom), spec).compile()
          assert.notInclude(text, "DROP")
          assert.include(params, evil)
          assert.include(params, custom[0]!.id)
          const result = yield* list({ ...spec, kind: "deal", custom })
          assert.strictEqual(result.total, 0)
          const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM deals WHERE account_id = ${accountId}`
          assert.strictEqual(n, 0)
        }))
    })
  })
})
