/**
 * The property test of the list query: random deals (built-in and custom values of every type,
 * links to contacts, tied timestamps) and random `complex_filters` ASTs, evaluated in memory by
 * the core's reference evaluator (`matchesFilters`) and in SQL by `RecordRepositoryPg`'s list: the same
 * set of ids, the exact total; and pages that partition the result in list order
 * (nulls last both ways, ties by id, no repeat, no gap, nothing past the last page).
 *
 * Every case runs in a fresh account next to a "mirror" account holding the same record ids,
 * contact ids and custom property ids with other values and links: a query that let another
 * account's rows, values or links in would show as a wrong set, a wrong total or a duplicate.
 *
 * On PGlite always, on PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set.
 */
import { assert, describe, layer } from "@effect/vitest"
import {
  coerceInstant,
  type ComplexFilters,
  type FilterScalar,
  type FilterValueType,
  foldCase,
  matchesFilters,
  RecordRepository,
  type StoredValues
} from "@wasl/core/Records"
import { DateTime, Effect } from "effect"
import { SqlClient } from "effect/sql"
import fc from "fast-check"
import { TestDatabase } from "../../src/db/test-database.ts"
import type { WriteValue } from "../../src/pg/records/record-codec.ts"
import type { CustomProperty } from "../../src/pg/records/storage.ts"
import { atTime, listInput } from "../../src/testing/record-contract-support.ts"
import { definitionsOf, expectedOrder, newAccount, newId, type OrderType, sortKey, storeOn } from "./fixtures.ts"
import {
  conditionArb,
  DATES,
  DATETIMES,
  filterTextArb,
  nodeArb,
  NUMBERS,
  type TestProperty,
  valueArb
} from "./record-arbitraries.ts"

// -----------------------------------------------------------------------------------------------
// The properties
// -----------------------------------------------------------------------------------------------

const STAGES = ["appointment_scheduled", "qualified_to_buy", "closed_won", "closed_lost"]
const HEAT = ["hot", "cold", "Warm"]
const TAGS = ["red", "green", "blue", "Mixed Case"]

/** Fixed custom property ids: the mirror account uses the same ones (isolation of value rows). */
const CUSTOM_PROPERTIES: ReadonlyArray<CustomProperty> = [
  { id: "c0000000000000000000000a", internal_name: "c_text", type: "string" },
  { id: "c0000000000000000000000b", internal_name: "c_num", type: "number" },
  { id: "c0000000000000000000000c", internal_name: "c_bool", type: "boolean" },
  { id: "c0000000000000000000000d", internal_name: "c_date", type: "date" },
  { id: "c0000000000000000000000e", internal_name: "c_dt", type: "datetime" },
  { id: "c0000000000000000000000f", internal_name: "c_sel", type: "single_select" },
  { id: "c00000000000000000000010", internal_name: "c_multi", type: "multi_select" },
  { id: "c00000000000000000000011", internal_name: "c_email", type: "email" }
]
const CUSTOM = definitionsOf("deal", CUSTOM_PROPERTIES)

/** Properties a record body sets. */
const WRITABLE: ReadonlyArray<TestProperty> = [
  { name: "deal_name", type: "string" },
  { name: "amount", type: "number" },
  { name: "deal_stage", type: "single_select", options: STAGES },
  { name: "close_date", type: "datetime" },
  { name: "forecast_amount", type: "number" },
  { name: "next_steps", type: "textarea" },
  { name: "c_text", type: "string" },
  { name: "c_num", type: "number" },
  { name: "c_bool", type: "boolean" },
  { name: "c_date", type: "date" },
  { name: "c_dt", type: "datetime" },
  { name: "c_sel", type: "single_select", options: HEAT },
  { name: "c_multi", type: "multi_select", options: TAGS },
  { name: "c_email", type: "email" }
]

const FILTERABLE: ReadonlyArray<TestProperty> = [
  ...WRITABLE,
  { name: "created_at", type: "datetime" },
  { name: "updated_at", type: "datetime" },
  { name: "contact_ids", type: "record_ids" }
]

const ORDERABLE: ReadonlyArray<TestProperty> = [
  ...WRITABLE,
  { name: "created_at", type: "datetime" },
  { name: "updated_at", type: "datetime" }
]

const orderTypeOf = (type: FilterValueType): OrderType =>
  type === "number" || type === "boolean" || type === "datetime" || type === "date"
    ? type
    : type === "multi_select" || type === "record_ids"
    ? "set"
    : "text"

/** The same contact ids in every account. */
const CONTACTS = ["0c0000000000000000000001", "0c0000000000000000000002", "0c0000000000000000000003"]
const UNKNOWN_CONTACT = "0c00000000000000000000ff"

// -----------------------------------------------------------------------------------------------
// Values
// -----------------------------------------------------------------------------------------------

/** created_at / updated_at of the records: few, so that ties happen. */
const AT = ["2026-02-01T10:00:00.000000Z", "2026-02-01T10:00:00.001000Z", "2026-02-02T00:00:00.000000Z"]

/** A property's value or one of the forms of "no value". */
const slotArb = (p: TestProperty): fc.Arbitrary<WriteValue> =>
  fc.oneof(
    { weight: 2, arbitrary: valueArb(p) as fc.Arbitrary<WriteValue> },
    { weight: 1, arbitrary: fc.constantFrom<WriteValue>(undefined, null, "", []) }
  )

interface RecordCase {
  readonly values: Readonly<Record<string, WriteValue>>
  /** Bit i: linked to CONTACTS[i]. */
  readonly links: number
  readonly at: number
}

const recordArb: fc.Arbitrary<RecordCase> = fc.record({
  values: fc.record(Object.fromEntries(WRITABLE.map((p) => [p.name, slotArb(p)]))),
  links: fc.integer({ min: 0, max: 7 }),
  at: fc.integer({ min: 0, max: AT.length - 1 })
})

// -----------------------------------------------------------------------------------------------
// Filters (the shapes the core's parser produces)
// -----------------------------------------------------------------------------------------------

const instant = (iso: string) => DateTime.makeUnsafe(iso)

const scalarArb = (p: TestProperty): fc.Arbitrary<FilterScalar> => {
  switch (p.type) {
    case "number":
      return fc.constantFrom(...NUMBERS).map((n) => n + 0)
    case "boolean":
      return fc.boolean()
    case "datetime":
      return fc.constantFrom(...DATETIMES, ...AT).map(instant)
    case "date":
      return fc.constantFrom(...DATETIMES, ...DATES.map((d) => `${d}T00:00:00Z`)).map((s) => coerceInstant(s, "date")!)
    case "single_select":
    case "multi_select":
      return fc.constantFrom(...p.options!)
    case "record_ids":
      return fc.constantFrom(...CONTACTS, UNKNOWN_CONTACT)
    default:
      return filterTextArb
  }
}

const filterNodeArb = nodeArb(conditionArb(FILTERABLE, scalarArb))

const filtersArb: fc.Arbitrary<ComplexFilters> = fc.oneof(
  { weight: 3, arbitrary: fc.array(filterNodeArb, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.array(filterNodeArb, { minLength: 3, maxLength: 4 }) }
)

const orderingArb = fc.record({
  order: fc.constantFrom(...ORDERABLE),
  direction: fc.constantFrom("asc" as const, "desc" as const),
  perPage: fc.integer({ min: 1, max: 4 }),
  /** Page through the records of the case's first query, or of all. */
  filtered: fc.boolean()
})

/** A list query's filter and search. */
const queryArb = fc.record({
  filters: filtersArb,
  search: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: filterTextArb }
  )
})

const caseArb = fc.record({
  records: fc.oneof(
    { weight: 1, arbitrary: fc.array(recordArb, { maxLength: 2 }) },
    { weight: 5, arbitrary: fc.array(recordArb, { minLength: 3, maxLength: 16 }) }
  ),
  queries: fc.array(queryArb, { minLength: 1, maxLength: 4 }),
  orderings: fc.array(orderingArb, { minLength: 1, maxLength: 3 })
})

type Case = typeof caseArb extends fc.Arbitrary<infer A> ? A : never
type Query = { readonly filters: ComplexFilters; readonly search?: string | undefined }

// -----------------------------------------------------------------------------------------------
// The check
// -----------------------------------------------------------------------------------------------

const linkedContacts = (mask: number) => CONTACTS.filter((_, i) => (mask & (1 << i)) !== 0)

const seed = Effect.fnUntraced(function*(accountId: number, records: ReadonlyArray<RecordCase>, ids: ReadonlyArray<string>) {
  const store = yield* RecordRepository
  for (const id of CONTACTS) {
    yield* store.insert({ accountId, kind: "contact", id, custom: [], values: { firstname: "C" } })
  }
  for (const [i, r] of records.entries()) {
    // Values as the core never stores them too ("", [], null: no value), and created_at = updated_at = AT.
    const values = r.values as StoredValues
    yield* atTime(AT[r.at]!, store.insert({ accountId, kind: "deal", id: ids[i]!, custom: CUSTOM, values }))
    for (const contact of linkedContacts(r.links)) {
      assert.isTrue(yield* store.link({ accountId, link: "deal_contact", from: ids[i]!, to: contact }))
    }
  }
})

/** What the evaluator sees of a record: its values as written, timestamps and links. */
const oracleValues = (r: RecordCase): Record<string, unknown> => ({
  ...r.values,
  created_at: AT[r.at],
  updated_at: AT[r.at],
  contact_ids: linkedContacts(r.links)
})

const checkCase = Effect.fnUntraced(function*(c: Case) {
  const store = yield* RecordRepository
  const accountId = yield* newAccount
  const mirrorId = yield* newAccount
  const ids = c.records.map(() => newId())
  yield* seed(accountId, c.records, ids)
  // The mirror: the same ids with the values and links of the next record.
  const n = c.records.length
  yield* seed(
    mirrorId,
    c.records.map((_, i) => ({ ...c.records[(i + 1) % n]!, links: 7 - c.records[i]!.links })),
    ids
  )

  const all = yield* store.list(listInput(accountId, "deal", CUSTOM, { perPage: 100 }))
  assert.strictEqual(all.total, n, "unfiltered total (the counter)")

  const oracle = c.records.map((r, i) => ({ id: ids[i]!, r, values: oracleValues(r) }))
  /** The reference: the evaluator, and search as a case-insensitive substring of deal_name. */
  const matching = (query: Query) =>
    oracle.filter((o) =>
      matchesFilters(o.values, query.filters) &&
      (query.search === undefined ||
        (typeof o.values.deal_name === "string" && foldCase(o.values.deal_name).includes(foldCase(query.search))))
    )

  for (const query of c.queries) {
    const expected = matching(query).map((o) => o.id).sort()
    const result = yield* store.list(listInput(accountId, "deal", CUSTOM, { ...query, perPage: 100 }))
    const got = result.rows.map((row) => row.record._id)
    assert.strictEqual(new Set(got).size, got.length, "no duplicate")
    assert.isTrue(result.rows.every((row) => row.record.account_id === accountId), "only the account's records")
    assert.deepStrictEqual([...got].sort(), expected, `query ${JSON.stringify(query)}`)
    assert.strictEqual(result.total, expected.length, "total")
  }

  for (const o of c.orderings) {
    const query: Query = o.filtered ? c.queries[0]! : { filters: [] }
    const type = orderTypeOf(o.order.type)
    const expected = expectedOrder(
      matching(query).map((m) => ({ id: m.id, key: sortKey(type, m.values[o.order.name]) })),
      o.direction
    )
    const lastPage = Math.max(Math.ceil(expected.length / o.perPage), 1)
    const seen: Array<string> = []
    for (let page = 1; page <= lastPage + 1; page++) {
      const result = yield* store.list(listInput(accountId, "deal", CUSTOM, {
        ...query,
        order: o.order.name,
        direction: o.direction,
        page,
        perPage: o.perPage
      }))
      assert.strictEqual(result.total, expected.length, "total on every page")
      assert.isAtMost(result.rows.length, o.perPage)
      if (page > lastPage) assert.strictEqual(result.rows.length, 0, "nothing past the last page")
      else if (page < lastPage) assert.strictEqual(result.rows.length, o.perPage, "full pages before the last")
      seen.push(...result.rows.map((row) => row.record._id))
    }
    assert.deepStrictEqual(seen, expected, `order ${o.order.name} ${o.direction} per_page ${o.perPage}`)
  }
})

describe.each(TestDatabase.variants)("list query on $name", ({ enabled, layer: database, name }) => {
  describe.runIf(enabled)("", () => {
    layer(storeOn(database), { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("SQL selects exactly what matchesFilters accepts; pages partition it in order", () =>
        Effect.gen(function*() {
          const context = yield* Effect.context<RecordRepository | SqlClient.SqlClient>()
          const run = Effect.runPromiseWith(context)
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(caseArb, (c) => run(checkCase(c))),
              { numRuns: name === "pglite" ? 80 : 150, endOnFailure: false }
            )
          )
        }), 300_000)
    })
  })
})
