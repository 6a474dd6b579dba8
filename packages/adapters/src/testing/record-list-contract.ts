/** The contract suite of `RecordRepository.list` (documented on `recordListContract`). */
import { assert, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import {
  coerceInstant,
  type ComplexFilters,
  type Condition,
  matchesFilters,
  type ObjectKind,
  type PropertyDefinition,
  RecordRepository,
  type RecordListParams,
  type StoredValues
} from "@wasl/core/Records"
import { DateTime, Duration, Effect, type Layer } from "effect"
import {
  atTime,
  condition as cond,
  customProperty,
  freshId,
  freshIds,
  idsOf,
  listInput,
  newAccountId,
  sortedIds
} from "./record-contract-support.ts"

/** What the layer under `recordListContract` provides. */
export type RecordListContractServices = RecordRepository | AccountRepository

const T0 = "2031-02-03T04:05:06.789Z"
const T1 = "2031-02-03T04:05:07.123Z"
const T2 = "2031-02-04T00:00:00.000Z"

const day = (iso: string) => coerceInstant(iso, "date")!

/** The list of the account's records of a kind: every record on one page, newest first, unless told. */
const lister = (accountId: number, kind: ObjectKind, custom: ReadonlyArray<PropertyDefinition>) =>
(params: Partial<RecordListParams> = {}) => RecordRepository.use((repo) => repo.list(listInput(accountId, kind, custom, params)))

/** Custom deal properties of every type. */
const dealProperties = (accountId: number) => ({
  tags: customProperty(accountId, "deal", "tags", "multi_select", ["red", "blue", "green", "Red"]),
  note: customProperty(accountId, "deal", "note", "textarea"),
  score: customProperty(accountId, "deal", "score", "number"),
  vip: customProperty(accountId, "deal", "vip", "boolean"),
  due: customProperty(accountId, "deal", "due", "date"),
  seen: customProperty(accountId, "deal", "seen", "datetime"),
  tier: customProperty(accountId, "deal", "tier", "single_select", ["Gold", "silver"])
})

/** Inserts records of a kind, their ids in ascending order. */
const insertAll = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  records: ReadonlyArray<StoredValues>
) =>
  Effect.gen(function*() {
    const repo = yield* RecordRepository
    const ids = freshIds(records.length)
    for (const [i, values] of records.entries()) yield* repo.insert({ accountId, kind, id: ids[i]!, custom, values })
    return ids
  })

/**
 * The contract of `RecordRepository.list` over every implementation (memory, PGlite, PostgreSQL,
 * or yours):
 *
 * - `search`: a case-insensitive substring of the kind's name property (contacts: fullname,
 *   email, phone or whatsapp_number, never across two of them), taken literally (`%`, `_`);
 * - `complex_filters`: every operator on built-in, derived and custom properties of each type,
 *   or-groups, no value failing every comparison (the negative ones too), deals' `contact_ids`;
 * - ordering by built-in, derived and custom properties and the timestamps: case-insensitive
 *   code-point order for texts, records without a value last in either direction, ties by `_id`
 *   in the direction, texts compared on their first 255 characters;
 * - pages that partition the order, with the exact total on every page and none past the last;
 * - only the account's records, values and links.
 *
 * Each test makes its own accounts, so the suite can share a database with others.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `RecordRepository` (under test) and `AccountRepository`.
 */
export const recordListContract = <E>(name: string, implementation: Layer.Layer<RecordListContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(120) })(name, (it) => {
    it.effect("search: a case-insensitive substring of each kind's name property, taken literally", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const names: ReadonlyArray<readonly [ObjectKind, string]> = [
          ["company", "name"],
          ["deal", "deal_name"],
          ["ticket", "ticket_name"],
          ["invoice", "invoice_number"],
          ["product", "name"]
        ]
        for (const [kind, property] of names) {
          const [plain, meta] = yield* insertAll(accountId, kind, [], [
            { [property]: "Big ÉTÉ Deal" },
            { [property]: "50%_off" }
          ])
          const search = (s: string) => Effect.map(lister(accountId, kind, [])({ search: s }), (r) => sortedIds(idsOf(r.rows)))
          assert.deepStrictEqual(yield* search("g été d"), [plain!], kind)
          assert.deepStrictEqual(yield* search("%_"), [meta!], kind)
          assert.deepStrictEqual(yield* search("0%"), [meta!], kind)
          assert.deepStrictEqual(yield* search("g%d"), [], `${kind}: % is no wildcard`)
          assert.deepStrictEqual(yield* search("5_%"), [], `${kind}: _ is no wildcard`)
          assert.deepStrictEqual(yield* search(""), sortedIds([plain!, meta!]), `${kind}: an empty search is none`)
        }
      }))

    it.effect("contacts search fullname, email, phone and WhatsApp number, never across two of them", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const [ada, grace, underscore, nameless] = yield* insertAll(accountId, "contact", [], [
          { firstname: "Ada", lastname: "Lovelace", email: "ADA@Example.com", phone: "+966501234567" },
          { firstname: "Grace", middlename: "Brewster", lastname: "Hopper", whatsapp_number: "+15550001111" },
          { email: "a_b@x.io" },
          { email: "axb@x.io" }
        ])
        const search = (s: string) => Effect.map(lister(accountId, "contact", [])({ search: s }), (r) => sortedIds(idsOf(r.rows)))
        assert.deepStrictEqual(yield* search("lovelace"), [ada!])
        assert.deepStrictEqual(yield* search("ADA LOVE"), [ada!])
        assert.deepStrictEqual(yield* search("example.COM"), [ada!])
        assert.deepStrictEqual(yield* search("0123"), [ada!])
        assert.deepStrictEqual(yield* search("5550001"), [grace!])
        assert.deepStrictEqual(yield* search("ce brewster ho"), [grace!])
        assert.deepStrictEqual(yield* search("a_b"), [underscore!])
        assert.deepStrictEqual(yield* search("x.io"), sortedIds([underscore!, nameless!]))
        assert.deepStrictEqual(yield* search("%"), [])
        assert.deepStrictEqual(yield* search("example.com\n+966"), [])
        assert.deepStrictEqual(yield* search("lovelace hopper"), [])
      }))

    it.effect("filters: every operator on built-in and custom values, no value failing every comparison, or-groups", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const { tags, note, score, vip, due, tier } = dealProperties(accountId)
        const custom = [tags, note, score, vip, due, tier]
        const [A, B, C] = yield* atTime(
          T0,
          insertAll(accountId, "deal", custom, [
            {
              deal_name: "Alpha",
              amount: 10,
              deal_stage: "closed_won",
              close_date: "2026-01-05T12:00:00.000000Z",
              tags: ["red", "blue"],
              note: "Call Monday",
              score: 3.5,
              vip: true,
              due: "2026-01-05",
              tier: "Gold"
            },
            { deal_name: "beta", amount: 20, deal_stage: "qualified_to_buy", tags: ["green"], vip: false, due: "2026-01-06" },
            { deal_name: "Gamma 50%_off", note: "call tuesday" }
          ])
        )
        const at = (iso: string) => DateTime.makeUnsafe(iso)
        const cases: ReadonlyArray<readonly [ComplexFilters, ReadonlyArray<string>]> = [
          [[cond("amount", "number", "eq", 10)], [A!]],
          [[cond("amount", "number", "neq", 10)], [B!]],
          [[cond("amount", "number", "gt", 10)], [B!]],
          [[cond("amount", "number", "gte", 10)], [A!, B!]],
          [[cond("amount", "number", "lt", 20)], [A!]],
          [[cond("amount", "number", "lte", 20)], [A!, B!]],
          [[cond("amount", "number", "between", [10, 15])], [A!]],
          [[cond("amount", "number", "between", [20, 10])], []],
          [[cond("amount", "number", "in", [10, 30])], [A!]],
          [[cond("amount", "number", "not_in", [10])], [B!]],
          [[cond("amount", "number", "is_empty")], [C!]],
          [[cond("amount", "number", "is_not_empty")], [A!, B!]],
          [[cond("deal_name", "string", "eq", "ALPHA")], [A!]],
          [[cond("deal_name", "string", "neq", "alpha")], [B!, C!]],
          [[cond("deal_name", "string", "contains", "AMM")], [C!]],
          [[cond("deal_name", "string", "starts_with", "BE")], [B!]],
          [[cond("deal_name", "string", "ends_with", "%_OFF")], [C!]],
          [[cond("deal_name", "string", "contains", "_")], [C!]],
          [[cond("deal_name", "string", "contains", "a%")], []],
          [[cond("deal_name", "string", "not_contains", "ALP")], [B!, C!]],
          [[cond("deal_name", "string", "in", ["beta", "gamma"])], [B!]],
          [[cond("deal_name", "string", "not_in", ["BETA"])], [A!, C!]],
          [[cond("deal_stage", "single_select", "eq", "CLOSED_WON")], [A!]],
          [[cond("deal_stage", "single_select", "in", ["closed_won", "qualified_to_buy"])], [A!, B!]],
          [[cond("deal_stage", "single_select", "neq", "closed_won")], [B!]],
          [[cond("deal_stage", "single_select", "is_empty")], [C!]],
          [[cond("close_date", "datetime", "gt", at("2026-01-05T00:00:00Z"))], [A!]],
          [[cond("close_date", "datetime", "lte", at("2026-01-05T12:00:00Z"))], [A!]],
          [[cond("close_date", "datetime", "lt", at("2026-01-05T12:00:00Z"))], []],
          [[cond("close_date", "datetime", "is_empty")], [B!, C!]],
          [[cond("tags", "multi_select", "eq", "RED")], [A!]],
          [[cond("tags", "multi_select", "neq", "red")], [B!]],
          [[cond("tags", "multi_select", "contains", "blue")], [A!]],
          [[cond("tags", "multi_select", "not_contains", "blue")], [B!]],
          [[cond("tags", "multi_select", "in", ["green", "blue"])], [A!, B!]],
          [[cond("tags", "multi_select", "not_in", ["green"])], [A!]],
          [[cond("tags", "multi_select", "is_empty")], [C!]],
          [[cond("tags", "multi_select", "is_not_empty")], [A!, B!]],
          [[cond("note", "textarea", "contains", "CALL")], [A!, C!]],
          [[cond("note", "textarea", "starts_with", "call t")], [C!]],
          [[cond("note", "textarea", "eq", "call monday")], [A!]],
          [[cond("note", "textarea", "is_empty")], [B!]],
          [[cond("score", "number", "gte", 3.5)], [A!]],
          [[cond("score", "number", "lt", 3.5)], []],
          [[cond("score", "number", "is_empty")], [B!, C!]],
          [[cond("vip", "boolean", "eq", false)], [B!]],
          [[cond("vip", "boolean", "neq", true)], [B!]],
          [[cond("vip", "boolean", "is_empty")], [C!]],
          [[cond("due", "date", "eq", day("2026-01-05T18:00:00Z"))], [A!]],
          [[cond("due", "date", "lt", day("2026-01-06"))], [A!]],
          [[cond("due", "date", "gt", day("2026-01-05"))], [B!]],
          [[cond("due", "date", "between", [day("2026-01-05"), day("2026-01-06")])], [A!, B!]],
          [[cond("tier", "single_select", "eq", "gold")], [A!]],
          [[cond("tier", "single_select", "neq", "GOLD")], []],
          [[cond("tier", "single_select", "is_empty")], [B!, C!]],
          [[cond("created_at", "datetime", "eq", at(T0))], [A!, B!, C!]],
          [[cond("updated_at", "datetime", "lt", at(T0))], []],
          [[{ _tag: "Or", conditions: [cond("amount", "number", "eq", 10), cond("deal_stage", "single_select", "eq", "qualified_to_buy")] }], [A!, B!]],
          [[{ _tag: "Or", conditions: [cond("amount", "number", "neq", 10), cond("amount", "number", "is_empty")] }], [B!, C!]],
          [[
            { _tag: "Or", conditions: [cond("amount", "number", "is_empty"), cond("amount", "number", "gt", 15)] },
            cond("deal_name", "string", "contains", "a")
          ], [B!, C!]],
          [[cond("deal_name", "string", "contains", "a"), cond("tags", "multi_select", "is_not_empty")], [A!, B!]],
          [[
            { _tag: "Or", conditions: [cond("tags", "multi_select", "eq", "green"), cond("note", "textarea", "contains", "monday")] },
            cond("score", "number", "is_empty")
          ], [B!]]
        ]
        const list = lister(accountId, "deal", custom)
        for (const [filters, expected] of cases) {
          const result = yield* list({ filters })
          assert.deepStrictEqual(sortedIds(idsOf(result.rows)), sortedIds(expected), JSON.stringify(filters))
          assert.strictEqual(result.total, expected.length, `total of ${JSON.stringify(filters)}`)
        }
      }))

    it.effect("filters on links: deals by contact_ids, contacts by deal_ids, tickets by their counts", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const [c1, c2, c3] = yield* insertAll(accountId, "contact", [], [{}, {}, {}])
        const [d1, d2, d3] = yield* insertAll(accountId, "deal", [], [{ deal_name: "1" }, { deal_name: "2" }, { deal_name: "3" }])
        const [t1, t2] = yield* insertAll(accountId, "ticket", [], [{ ticket_name: "1" }, { ticket_name: "2" }])
        for (const [from, to] of [[d1, c1], [d2, c1], [d2, c2]]) {
          yield* repo.link({ accountId, link: "deal_contact", from: from!, to: to! })
        }
        yield* repo.link({ accountId, link: "ticket_contact", from: t1!, to: c1! })
        yield* repo.link({ accountId, link: "ticket_contact", from: t1!, to: c2! })
        const ids = (kind: ObjectKind, c: Condition) =>
          Effect.map(lister(accountId, kind, [])({ filters: [c] }), (r) => sortedIds(idsOf(r.rows)))
        assert.deepStrictEqual(yield* ids("deal", cond("contact_ids", "record_ids", "in", [c2!])), [d2!])
        assert.deepStrictEqual(yield* ids("deal", cond("contact_ids", "record_ids", "in", [c1!, c3!])), sortedIds([d1!, d2!]))
        assert.deepStrictEqual(yield* ids("deal", cond("contact_ids", "record_ids", "in", [freshId()])), [])
        assert.deepStrictEqual(yield* ids("contact", cond("deal_ids", "multi_select", "eq", d2!)), sortedIds([c1!, c2!]))
        assert.deepStrictEqual(yield* ids("contact", cond("deal_ids", "multi_select", "neq", d2!)), [])
        assert.deepStrictEqual(yield* ids("contact", cond("deal_ids", "multi_select", "not_in", [d1!])), [c2!])
        assert.deepStrictEqual(yield* ids("contact", cond("deal_ids", "multi_select", "is_empty")), [c3!])
        assert.deepStrictEqual(yield* ids("ticket", cond("contacts_count", "number", "eq", 2)), [t1!])
        assert.deepStrictEqual(yield* ids("ticket", cond("contacts_count", "number", "lt", 1)), [t2!])
        assert.deepStrictEqual(yield* ids("ticket", cond("deals_count", "number", "is_empty")), [])
        assert.deepStrictEqual(yield* ids("deal", cond("deal_name", "string", "eq", "3")), [d3!])
      }))

    it.effect("order: by value in code-point order, ties by _id in the direction, no value last either way", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const { tags, vip, note, score, due, seen, tier } = dealProperties(accountId)
        const custom = [tags, vip, note, score, due, seen, tier]
        const ids = freshIds(7)
        const records: ReadonlyArray<StoredValues> = [
          {
            deal_name: "b",
            amount: 10,
            deal_stage: "closed_won",
            close_date: "2026-01-05T12:00:00.000000Z",
            tags: ["red", "blue"],
            vip: true,
            note: "Zeta",
            score: 2,
            due: "2026-01-06",
            tier: "silver"
          },
          {
            deal_name: "B",
            amount: -1.5,
            deal_stage: "appointment_scheduled",
            close_date: "2026-01-05T12:00:00.001000Z",
            tags: ["blue"],
            vip: false,
            note: "alpha",
            score: -1,
            due: "2026-01-05",
            tier: "Gold"
          },
          { deal_name: "a", amount: 10, tags: ["Red"], vip: false, note: "ä", score: 2, seen: "2026-01-05T00:00:00.000000Z" },
          {
            deal_name: "ä",
            deal_stage: "qualified_to_buy",
            close_date: "2025-12-31T23:59:59.999000Z",
            note: "Z",
            score: 0,
            seen: "2026-01-04T23:59:59.999000Z"
          },
          { deal_name: "Z", amount: 0, deal_stage: "closed_won", tags: ["blue", "red"], vip: true, due: "2026-01-05", tier: "Gold" },
          { deal_name: "ｚ" },
          { deal_name: "\u{20000}" }
        ]
        for (const [i, values] of records.entries()) {
          yield* atTime(i === 2 ? T1 : T0, repo.insert({ accountId, kind: "deal", id: ids[i]!, custom, values }))
        }
        yield* atTime(T2, repo.update({ accountId, kind: "deal", id: ids[0]!, custom, patch: {} }))
        const expected: ReadonlyArray<readonly [string, ReadonlyArray<number>, ReadonlyArray<number>]> = [
          ["deal_name", [2, 0, 1, 4, 3, 5, 6], [6, 5, 3, 4, 1, 0, 2]],
          ["amount", [1, 4, 0, 2, 3, 5, 6], [2, 0, 4, 1, 6, 5, 3]],
          ["deal_stage", [1, 0, 4, 3, 2, 5, 6], [3, 4, 0, 1, 6, 5, 2]],
          ["close_date", [3, 0, 1, 2, 4, 5, 6], [1, 0, 3, 6, 5, 4, 2]],
          ["tags", [1, 0, 4, 2, 3, 5, 6], [2, 4, 0, 1, 6, 5, 3]],
          ["vip", [1, 2, 0, 4, 3, 5, 6], [4, 0, 2, 1, 6, 5, 3]],
          ["note", [1, 3, 0, 2, 4, 5, 6], [2, 0, 3, 1, 6, 5, 4]],
          ["score", [1, 3, 0, 2, 4, 5, 6], [2, 0, 3, 1, 6, 5, 4]],
          ["due", [1, 4, 0, 2, 3, 5, 6], [0, 4, 1, 6, 5, 3, 2]],
          ["seen", [3, 2, 0, 1, 4, 5, 6], [2, 3, 6, 5, 4, 1, 0]],
          ["tier", [1, 4, 0, 2, 3, 5, 6], [0, 4, 1, 6, 5, 3, 2]],
          ["created_at", [0, 1, 3, 4, 5, 6, 2], [2, 6, 5, 4, 3, 1, 0]],
          ["updated_at", [1, 3, 4, 5, 6, 2, 0], [0, 2, 6, 5, 4, 3, 1]]
        ]
        const list = lister(accountId, "deal", custom)
        for (const [order, asc, desc] of expected) {
          for (const [direction, positions] of [["asc", asc], ["desc", desc]] as const) {
            const result = yield* list({ order, direction })
            assert.deepStrictEqual(idsOf(result.rows), positions.map((i) => ids[i]!), `${order} ${direction}`)
          }
        }
      }))

    it.effect("order by derived properties and dates: fullname, deal_ids, contacts_count (0 is a value), due_date", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const contacts = yield* insertAll(accountId, "contact", [], [
          { firstname: "Bo" },
          { firstname: "ada", lastname: "Z" },
          {},
          { lastname: "Ada" }
        ])
        const deals = yield* insertAll(accountId, "deal", [], [{ deal_name: "0" }, { deal_name: "1" }])
        const tickets = yield* insertAll(accountId, "ticket", [], [{ ticket_name: "0" }, { ticket_name: "1" }, {
          ticket_name: "2"
        }, { ticket_name: "3" }])
        const invoices = yield* insertAll(accountId, "invoice", [], [
          { invoice_number: "0", due_date: "2026-03-05" },
          { invoice_number: "1" },
          { invoice_number: "2", due_date: "2026-03-04" }
        ])
        for (const [d, c] of [[1, 0], [0, 1], [1, 1], [0, 3]]) {
          yield* repo.link({ accountId, link: "deal_contact", from: deals[d]!, to: contacts[c]! })
        }
        for (const [t, c] of [[0, 0], [0, 1], [2, 3]]) {
          yield* repo.link({ accountId, link: "ticket_contact", from: tickets[t]!, to: contacts[c]! })
        }
        const cases: ReadonlyArray<readonly [ObjectKind, string, ReadonlyArray<string>, ReadonlyArray<number>, ReadonlyArray<number>]> = [
          ["contact", "fullname", contacts, [3, 1, 0, 2], [0, 1, 3, 2]],
          ["contact", "deal_ids", contacts, [3, 1, 0, 2], [0, 1, 3, 2]],
          ["ticket", "contacts_count", tickets, [1, 3, 2, 0], [0, 2, 3, 1]],
          ["invoice", "due_date", invoices, [2, 0, 1], [0, 2, 1]]
        ]
        for (const [kind, order, ids, asc, desc] of cases) {
          for (const [direction, positions] of [["asc", asc], ["desc", desc]] as const) {
            const result = yield* lister(accountId, kind, [])({ order, direction })
            assert.deepStrictEqual(idsOf(result.rows), positions.map((i) => ids[i]!), `${kind} ${order} ${direction}`)
          }
        }
        // A date compares by calendar day.
        const dueOn = (c: Condition) => Effect.map(lister(accountId, "invoice", [])({ filters: [c] }), (r) => idsOf(r.rows))
        assert.deepStrictEqual(yield* dueOn(cond("due_date", "date", "eq", day("2026-03-05T18:00:00Z"))), [invoices[0]!])
        assert.deepStrictEqual(yield* dueOn(cond("due_date", "date", "gt", day("2026-03-04"))), [invoices[0]!])
        assert.deepStrictEqual(yield* dueOn(cond("due_date", "date", "lte", day("2026-03-04T23:59:59Z"))), [invoices[2]!])
      }))

    it.effect("sets order on their first 255 characters too: sets equal that far tie, by _id", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const { tags } = dealProperties(accountId)
        const long = "x".repeat(300)
        // Uncut, b's set would sort first; cut, the two tie.
        const [a, b] = yield* insertAll(accountId, "deal", [tags], [{ deal_name: "a", tags: [long + "b"] }, {
          deal_name: "b",
          tags: [long + "a"]
        }])
        const byTags = (direction: "asc" | "desc") =>
          Effect.map(lister(accountId, "deal", [tags])({ order: "tags", direction }), (r) => idsOf(r.rows))
        assert.deepStrictEqual(yield* byTags("asc"), [a!, b!])
        assert.deepStrictEqual(yield* byTags("desc"), [b!, a!])

        // deal_ids: ten shared deals (250 characters with their separators), then one that differs
        // only after the 255th character.
        const hex = (prefix: string, n: number) => prefix + n.toString(16).padStart(24 - prefix.length, "0")
        const deals = Array.from({ length: 12 }, (_, i) => hex("dd", i))
        for (const id of deals) yield* repo.insert({ accountId, kind: "deal", id, custom: [], values: { deal_name: id } })
        const [q, p] = [hex("cc", 1), hex("cc", 2)]
        for (const id of [q, p]) yield* repo.insert({ accountId, kind: "contact", id, custom: [], values: {} })
        for (const [contact, last] of [[p, deals[10]!], [q, deals[11]!]] as const) {
          for (const deal of [...deals.slice(0, 10), last]) yield* repo.link({ accountId, link: "deal_contact", from: deal, to: contact })
        }
        const byDeals = (direction: "asc" | "desc") =>
          Effect.map(lister(accountId, "contact", [])({ order: "deal_ids", direction }), (r) => idsOf(r.rows))
        assert.deepStrictEqual(yield* byDeals("asc"), [q, p])
        assert.deepStrictEqual(yield* byDeals("desc"), [p, q])
      }))

    it.effect("pages partition the order, with the exact total on every page and nothing past the last", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const records = [3, undefined, 1, 2, undefined, 2, 5].map((amount, i) =>
          amount === undefined ? { deal_name: `D${i}` } : { deal_name: `D${i}`, amount }
        )
        yield* insertAll(accountId, "deal", [], records)
        for (const direction of ["asc", "desc"] as const) {
          for (const filters of [[], [cond("deal_name", "string", "neq", "d6")]] as const) {
            const list = lister(accountId, "deal", [])
            const all = yield* list({ order: "amount", direction, filters })
            const expectedTotal = filters.length === 0 ? 7 : 6
            assert.strictEqual(all.total, expectedTotal)
            for (const perPage of [1, 2, 3]) {
              const seen: Array<string> = []
              const lastPage = Math.ceil(expectedTotal / perPage)
              for (let page = 1; page <= lastPage + 1; page++) {
                const result = yield* list({ order: "amount", direction, filters, page, perPage })
                assert.strictEqual(result.total, expectedTotal)
                assert.strictEqual(result.rows.length, page < lastPage ? perPage : page === lastPage ? expectedTotal - perPage * (lastPage - 1) : 0)
                seen.push(...idsOf(result.rows))
              }
              assert.deepStrictEqual(seen, idsOf(all.rows), `${direction} per_page ${perPage}`)
            }
          }
          const far = yield* lister(accountId, "deal", [])({ order: "amount", direction, page: Number.MAX_SAFE_INTEGER, perPage: 100 })
          assert.deepStrictEqual([far.total, far.rows.length], [7, 0])
        }
      }))

    it.effect("long texts (65,535 characters) are held whole, compared whole, and ordered on their first 255", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const note = customProperty(accountId, "deal", "note", "textarea")
        const long = "Ω".repeat(300) + "x".repeat(65_235)
        const longer = "Ω".repeat(300) + "y".repeat(65_235)
        const [a, b] = yield* insertAll(accountId, "deal", [note], [
          { deal_name: longer, note: long },
          { deal_name: long, note: longer }
        ])
        const list = lister(accountId, "deal", [note])
        const ids = (filters: ComplexFilters) => Effect.map(list({ filters }), (r) => idsOf(r.rows))
        assert.deepStrictEqual(yield* ids([cond("note", "textarea", "eq", long.toLowerCase())]), [a!])
        assert.deepStrictEqual(yield* ids([cond("deal_name", "string", "in", [long])]), [b!])
        assert.deepStrictEqual(yield* ids([cond("note", "textarea", "ends_with", "XY")]), [])
        assert.deepStrictEqual(yield* ids([cond("note", "textarea", "ends_with", "Y")]), [b!])
        const ordered = yield* list({ order: "note", direction: "desc" })
        assert.deepStrictEqual(idsOf(ordered.rows), [b!, a!], "equal in their first 255 characters: by _id")
        assert.strictEqual(ordered.rows[1]!.record.values.note, long)
      }))

    it.effect("texts around the 255-character key: equality and lists agree with the reference evaluator", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccountId
        const note = customProperty(accountId, "deal", "note", "textarea")
        const texts = ["A".repeat(254), "a".repeat(255), "a".repeat(256), "a".repeat(255) + "b", "a".repeat(254) + "B"]
        const records = texts.map((text) => ({ deal_name: text, note: text }))
        const ids = yield* insertAll(accountId, "deal", [note], records)
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
            const expected = sortedIds(ids.filter((_, i) => matchesFilters(records[i]!, [c])))
            const got = yield* lister(accountId, "deal", [note])({ filters: [c] })
            assert.deepStrictEqual(sortedIds(idsOf(got.rows)), expected, `${property} ${c.operator}`)
          }
        }
      }))

    it.effect("lists see only the account's records, values and links", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const mine = yield* newAccountId
        const theirs = yield* newAccountId
        const score = customProperty(mine, "deal", "score", "number")
        const [deal, other, contact] = freshIds(3)
        // The same ids and property in both accounts, with other values and links.
        for (const [accountId, value] of [[mine, 1], [theirs, 2]] as const) {
          yield* repo.insert({ accountId, kind: "deal", id: deal!, custom: [score], values: { deal_name: "D", score: value } })
          yield* repo.insert({ accountId, kind: "contact", id: contact!, custom: [], values: {} })
        }
        yield* repo.insert({ accountId: theirs, kind: "deal", id: other!, custom: [score], values: { deal_name: "D", score: 5 } })
        yield* repo.link({ accountId: theirs, link: "deal_contact", from: deal!, to: contact! })
        const list = lister(mine, "deal", [score])
        const all = yield* list({ order: "score" })
        assert.deepStrictEqual([idsOf(all.rows), all.total], [[deal!], 1])
        assert.deepStrictEqual(all.rows.map((r) => r.record.values.score), [1])
        assert.strictEqual((yield* list({ filters: [cond("score", "number", "gt", 1)] })).total, 0)
        assert.strictEqual((yield* list({ filters: [cond("contact_ids", "record_ids", "in", [contact!])] })).total, 0)
        assert.strictEqual((yield* list({ search: "d" })).total, 1)
        const contacts = yield* lister(mine, "contact", [])({ filters: [cond("deal_ids", "multi_select", "is_not_empty")] })
        assert.strictEqual(contacts.total, 0)
      }))
  })
