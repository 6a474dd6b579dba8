/** The contract suite of `RecordRepository` beyond lists (documented on `recordRepositoryContract`). */
import { assert, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { type Note, NoteRepository } from "@wasl/core/Notes"
import { type Condition, RecordRepository, type RecordWithDerived } from "@wasl/core/Records"
import { Cause, DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"
import {
  atTime,
  comparable,
  condition,
  customProperty,
  freshId,
  freshIds,
  idsOf,
  listInput,
  newAccountId
} from "./record-contract-support.ts"

/** What the layer under `recordRepositoryContract` provides. */
export type RecordRepositoryContractServices = RecordRepository | NoteRepository | AccountRepository | Transactor

class Boom extends Error {}

const T0 = "2031-02-03T04:05:06.789Z"
const T1 = "2031-02-03T04:05:07.123Z"
const T2 = "2031-02-04T00:00:00.000Z"

const found = (option: Option.Option<RecordWithDerived>) => comparable(Option.getOrThrow(option))

/** A note on a record, written now. */
const noteOn = (accountId: number, kind: Note["object_type"], recordId: string): Effect.Effect<Note> =>
  Effect.map(DateTime.now, (now) => ({
    _id: freshId(),
    account_id: accountId,
    object_type: kind,
    record_id: recordId,
    body: "hello",
    made_by: null,
    created_at: now,
    updated_at: now
  }))

/**
 * The contract of `RecordRepository` beyond lists (those are `recordListContract`'s), over every
 * implementation (memory, PGlite, PostgreSQL, or yours):
 *
 * - insert, insertAll (several at once, all or none, in the order given) and get: values come back in their stored form, timestamps are the clock's, and each
 *   kind carries its derived data (deal contacts, contact deal ids and channels, ticket counts);
 *   reads show the custom values of the definitions given, by property id; a taken id is a defect;
 * - update applies a patch (null clears; updated_at moves, created_at stays); delete removes the
 *   record with its values, links and notes;
 * - the three links: idempotent, both sides must be the account's records of the link's kinds,
 *   and the derived data of both sides follows (deal contacts oldest link first, ties by id);
 * - `existing`; tenancy (another account's record is never read, changed, deleted or linked);
 * - a failed transaction leaves none of its writes.
 *
 * Each test makes its own accounts, so the suite can share a database with others.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `RecordRepository` (under test), `NoteRepository` (a record's
 *   notes go with it), `AccountRepository` and `Transactor`.
 */
export const recordRepositoryContract = <E>(
  name: string,
  implementation: Layer.Layer<RecordRepositoryContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(120) })(name, (it) => {
    it.effect("insert stores the values in their stored form, with the clock's timestamps; get reads the same", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const score = customProperty(accountId, "deal", "score", "number")
        const tags = customProperty(accountId, "deal", "tags", "multi_select", ["red", "blue"])
        const vip = customProperty(accountId, "deal", "vip", "boolean")
        const due = customProperty(accountId, "deal", "due", "date")
        const custom = [score, tags, vip, due]
        const id = freshId()
        const values = {
          deal_name: "Big deal",
          amount: 1200.5,
          deal_stage: "qualified_to_buy",
          close_date: "2026-12-01T10:11:12.345000Z",
          forecast_amount: 0,
          next_steps: "Call\nthem",
          score: -3,
          tags: ["red", "blue"],
          vip: false,
          due: "2026-03-05"
        }
        const inserted = yield* atTime(T0, repo.insert({ accountId, kind: "deal", id, custom, values }))
        assert.deepStrictEqual(comparable(inserted), {
          _id: id,
          account_id: accountId,
          values,
          created_at: T0,
          updated_at: T0,
          derived: { contacts: [], companyIds: [] }
        })
        assert.deepStrictEqual(found(yield* repo.get({ accountId, kind: "deal", id, custom })), comparable(inserted))
      }))

    it.effect("insertAll stores records as insert does each, whatever values each sets, in the order given; filters see their custom values", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const score = customProperty(accountId, "deal", "score", "number")
        const tags = customProperty(accountId, "deal", "tags", "multi_select", ["red", "blue"])
        const custom = [score, tags]
        const [a, b, c] = [freshId(), freshId(), freshId()]
        const inputs = [
          { accountId, kind: "deal" as const, id: b, custom, values: { deal_name: "B", amount: 5, score: 7, tags: ["red"] } },
          { accountId, kind: "deal" as const, id: a, custom, values: { deal_name: "A" } },
          { accountId, kind: "deal" as const, id: c, custom, values: { deal_name: "C", tags: ["blue", "red"] } }
        ]
        const stored = yield* atTime(T0, repo.insertAll(inputs))
        assert.deepStrictEqual(idsOf(stored), [b, a, c])
        for (const [i, input] of inputs.entries()) {
          assert.deepStrictEqual(comparable(stored[i]!), {
            _id: input.id,
            account_id: accountId,
            values: input.values,
            created_at: T0,
            updated_at: T0,
            derived: { contacts: [], companyIds: [] }
          })
          assert.deepStrictEqual(found(yield* repo.get({ accountId, kind: "deal", id: input.id, custom })), comparable(stored[i]!))
        }
        const matching = (filter: Condition) =>
          Effect.map(repo.list({ ...listInput(accountId, "deal", custom), filters: [filter] }), (page) => idsOf(page.rows).sort())
        assert.deepStrictEqual(yield* matching(condition("score", "number", "eq", 7)), [b])
        assert.deepStrictEqual(yield* matching(condition("tags", "multi_select", "in", ["red"])), [b, c].sort())
        assert.deepStrictEqual(yield* repo.insertAll([]), [])
      }))

    it.effect("insertAll stores all or none: a taken id among them is a defect that stores none of them", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const score = customProperty(accountId, "deal", "score", "number")
        const taken = freshId()
        yield* repo.insert({ accountId, kind: "deal", id: taken, custom: [], values: { deal_name: "First" } })
        const fresh = [freshId(), freshId()]
        const exit = yield* Effect.exit(repo.insertAll([
          { accountId, kind: "deal", id: fresh[0]!, custom: [score], values: { deal_name: "New", score: 1 } },
          { accountId, kind: "deal", id: taken, custom: [score], values: { deal_name: "Again" } },
          { accountId, kind: "deal", id: fresh[1]!, custom: [score], values: { deal_name: "Other", amount: 3 } }
        ]))
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
        assert.deepStrictEqual(yield* repo.existing(accountId, "deal", [...fresh, taken]), [taken])
        const page = yield* repo.list({ ...listInput(accountId, "deal", [score]), filters: [condition("score", "number", "eq", 1)] })
        assert.strictEqual(page.total, 0)
      }))

    it.effect("each kind reads with its derived data: deal contacts, contact deal ids and channels, ticket counts", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const insert = (kind: "contact" | "company" | "ticket" | "invoice" | "product", values: Record<string, string>) =>
          Effect.map(repo.insert({ accountId, kind, id: freshId(), custom: [], values }), (r) => r.derived)
        assert.deepStrictEqual(yield* insert("contact", { firstname: "Ada" }), { dealIds: [], companyIds: [], channels: [] })
        assert.deepStrictEqual(yield* insert("ticket", { ticket_name: "T" }), { contactsCount: 0, dealsCount: 0, companyIds: [] })
        assert.deepStrictEqual(yield* insert("company", { name: "C" }), {
          contactIds: [],
          dealIds: [],
          ticketIds: [],
          contactsCount: 0,
          dealsCount: 0,
          ticketsCount: 0
        })
        assert.deepStrictEqual(yield* insert("invoice", { invoice_number: "I-1", due_date: "2026-03-05" }), {})
        assert.deepStrictEqual(yield* insert("product", { name: "P" }), {})
      }))

    it.effect("reads show the custom values of the definitions given, by property id", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const score = customProperty(accountId, "deal", "score", "number")
        const id = freshId()
        yield* repo.insert({ accountId, kind: "deal", id, custom: [score], values: { deal_name: "D", score: 7 } })
        const valuesWith = (custom: ReadonlyArray<typeof score>) =>
          Effect.map(repo.get({ accountId, kind: "deal", id, custom }), (r) => Option.getOrThrow(r).record.values)
        assert.deepStrictEqual(yield* valuesWith([score]), { deal_name: "D", score: 7 })
        assert.deepStrictEqual(yield* valuesWith([]), { deal_name: "D" })
        // A property made again under the same name is another property: the old value is not its.
        assert.deepStrictEqual(yield* valuesWith([customProperty(accountId, "deal", "score", "number")]), { deal_name: "D" })
        // Another kind's definition with the property's id is not the deal's.
        assert.deepStrictEqual(yield* valuesWith([{ ...score, kind: "contact" }]), { deal_name: "D" })
      }))

    it.effect("an id is unique per account and kind: a taken one is a defect that stores nothing", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const other = yield* newAccountId
        const id = freshId()
        yield* repo.insert({ accountId, kind: "deal", id, custom: [], values: { deal_name: "First" } })
        const exit = yield* Effect.exit(repo.insert({ accountId, kind: "deal", id, custom: [], values: { deal_name: "Again" } }))
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
        const kept = Option.getOrThrow(yield* repo.get({ accountId, kind: "deal", id, custom: [] }))
        assert.strictEqual(kept.record.values.deal_name, "First")
        // The same id under another kind, or in another account, is another record.
        yield* repo.insert({ accountId, kind: "ticket", id, custom: [], values: { ticket_name: "T" } })
        yield* repo.insert({ accountId: other, kind: "deal", id, custom: [], values: { deal_name: "Theirs" } })
        const theirs = Option.getOrThrow(yield* repo.get({ accountId: other, kind: "deal", id, custom: [] }))
        assert.strictEqual(theirs.record.values.deal_name, "Theirs")
      }))

    it.effect("update applies a patch: given names change, null clears, the rest stays; updated_at moves", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const note = customProperty(accountId, "deal", "note", "textarea")
        const score = customProperty(accountId, "deal", "score", "number")
        const tags = customProperty(accountId, "deal", "tags", "multi_select", ["a", "b", "c"])
        const custom = [note, score, tags]
        const id = freshId()
        yield* atTime(
          T0,
          repo.insert({
            accountId,
            kind: "deal",
            id,
            custom,
            values: { deal_name: "Old", amount: 5, note: "first", score: 1, tags: ["a", "b"] }
          })
        )
        const updated = yield* atTime(
          T1,
          repo.update({
            accountId,
            kind: "deal",
            id,
            custom,
            patch: { amount: null, next_steps: "call", score: null, tags: ["c"], note: "second" }
          })
        )
        const expected = {
          _id: id,
          account_id: accountId,
          values: { deal_name: "Old", next_steps: "call", note: "second", tags: ["c"] },
          created_at: T0,
          updated_at: T1,
          derived: { contacts: [], companyIds: [] }
        }
        assert.deepStrictEqual(found(updated), expected)
        assert.deepStrictEqual(found(yield* repo.get({ accountId, kind: "deal", id, custom })), expected)
        // An empty patch changes only updated_at.
        const touched = yield* atTime(T2, repo.update({ accountId, kind: "deal", id, custom, patch: {} }))
        assert.deepStrictEqual(found(touched), { ...expected, updated_at: T2 })
        // Lists filter on the values as patched.
        const total = (c: Condition) =>
          Effect.map(
            repo.list(listInput(accountId, "deal", custom, { filters: [c] })),
            (page) => page.total
          )
        assert.strictEqual(yield* total(condition("tags", "multi_select", "contains", "a")), 0)
        assert.strictEqual(yield* total(condition("tags", "multi_select", "contains", "c")), 1)
        assert.strictEqual(yield* total(condition("score", "number", "is_empty")), 1)
        assert.strictEqual(yield* total(condition("amount", "number", "is_empty")), 1)
        assert.strictEqual(yield* total(condition("note", "textarea", "eq", "FIRST")), 0)
        assert.strictEqual(yield* total(condition("note", "textarea", "eq", "Second")), 1)
        assert.strictEqual(yield* total(condition("next_steps", "textarea", "eq", "call")), 1)
      }))

    it.effect("get, update and delete find nothing of another account or kind, or of an unknown id", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const owner = yield* newAccountId
        const other = yield* newAccountId
        const id = freshId()
        yield* repo.insert({ accountId: owner, kind: "deal", id, custom: [], values: { deal_name: "Mine" } })
        const misses = [[other, "deal", id, "deal_name"], [owner, "ticket", id, "ticket_name"], [owner, "deal", freshId(), "deal_name"]] as const
        for (const [accountId, kind, recordId, name] of misses) {
          assert.isTrue(Option.isNone(yield* repo.get({ accountId, kind, id: recordId, custom: [] })))
          assert.isTrue(Option.isNone(yield* repo.update({ accountId, kind, id: recordId, custom: [], patch: { [name]: "X" } })))
          assert.isFalse(yield* repo.delete({ accountId, kind, id: recordId }))
        }
        const mine = Option.getOrThrow(yield* repo.get({ accountId: owner, kind: "deal", id, custom: [] }))
        assert.strictEqual(mine.record.values.deal_name, "Mine")
      }))

    it.effect("delete removes the record with its values, links and notes; the other sides stay", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const notes = yield* NoteRepository
        const accountId = yield* newAccountId
        const score = customProperty(accountId, "deal", "score", "number")
        const [deal, contact, ticket] = [freshId(), freshId(), freshId()]
        yield* repo.insert({ accountId, kind: "deal", id: deal, custom: [score], values: { deal_name: "D", score: 3 } })
        yield* repo.insert({ accountId, kind: "contact", id: contact, custom: [], values: { firstname: "Ada" } })
        yield* repo.insert({ accountId, kind: "ticket", id: ticket, custom: [], values: { ticket_name: "T" } })
        assert.isTrue(yield* repo.link({ accountId, link: "deal_contact", from: deal, to: contact }))
        assert.isTrue(yield* repo.link({ accountId, link: "ticket_deal", from: ticket, to: deal }))
        yield* notes.insert(yield* noteOn(accountId, "deal", deal))
        const contactNote = yield* noteOn(accountId, "contact", contact)
        yield* notes.insert(contactNote)

        assert.isTrue(yield* repo.delete({ accountId, kind: "deal", id: deal }))
        assert.isFalse(yield* repo.delete({ accountId, kind: "deal", id: deal }))
        assert.isTrue(Option.isNone(yield* repo.get({ accountId, kind: "deal", id: deal, custom: [score] })))
        const page = { page: 1, perPage: 15 }
        assert.strictEqual((yield* notes.list({ accountId, kind: "deal", recordId: deal }, page)).total, 0)
        assert.deepStrictEqual(
          (yield* notes.list({ accountId, kind: "contact", recordId: contact }, page)).rows.map((n) => n._id),
          [contactNote._id]
        )
        const contactNow = Option.getOrThrow(yield* repo.get({ accountId, kind: "contact", id: contact, custom: [] }))
        assert.deepStrictEqual(contactNow.derived.dealIds, [])
        const ticketNow = Option.getOrThrow(yield* repo.get({ accountId, kind: "ticket", id: ticket, custom: [] }))
        assert.deepStrictEqual([ticketNow.derived.contactsCount, ticketNow.derived.dealsCount], [0, 0])
        // The id is free again, and nothing of the old record comes back with it.
        const again = yield* repo.insert({ accountId, kind: "deal", id: deal, custom: [score], values: { deal_name: "New" } })
        assert.deepStrictEqual(again.record.values, { deal_name: "New" })
        assert.deepStrictEqual(again.derived.contacts, [])
        assert.strictEqual((yield* notes.list({ accountId, kind: "deal", recordId: deal }, page)).total, 0)
      }))

    it.effect("deal–contact links: idempotent; the deal's contacts oldest link first (ties by id), the contact's deal ids", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const [c1, c2, c3] = freshIds(3)
        const [d1, d2] = freshIds(2)
        yield* repo.insert({ accountId, kind: "contact", id: c1!, custom: [], values: { firstname: "Ada", lastname: "Lovelace" } })
        yield* repo.insert({ accountId, kind: "contact", id: c2!, custom: [], values: { firstname: "Bo" } })
        yield* repo.insert({ accountId, kind: "contact", id: c3!, custom: [], values: { lastname: "Cy" } })
        yield* repo.insert({ accountId, kind: "deal", id: d1!, custom: [], values: { deal_name: "D1" } })
        yield* repo.insert({ accountId, kind: "deal", id: d2!, custom: [], values: { deal_name: "D2" } })
        const link = (from: string, to: string) => repo.link({ accountId, link: "deal_contact", from, to })
        assert.isTrue(yield* atTime(T0, link(d1!, c3!)))
        assert.isTrue(yield* atTime(T1, link(d1!, c2!)))
        assert.isTrue(yield* atTime(T1, link(d1!, c1!)))
        assert.isFalse(yield* atTime(T2, link(d1!, c3!)), "linking twice changes nothing")
        assert.isTrue(yield* link(d2!, c1!))

        const deal = Option.getOrThrow(yield* repo.get({ accountId, kind: "deal", id: d1!, custom: [] }))
        assert.deepStrictEqual(deal.derived.contacts, [
          { _id: c3!, account_id: accountId, firstname: null, lastname: "Cy" },
          { _id: c1!, account_id: accountId, firstname: "Ada", lastname: "Lovelace" },
          { _id: c2!, account_id: accountId, firstname: "Bo", lastname: null }
        ])
        const contact = Option.getOrThrow(yield* repo.get({ accountId, kind: "contact", id: c1!, custom: [] }))
        assert.deepStrictEqual(contact.derived.dealIds, [d1!, d2!])
        // Summaries are read when the deal is: they show the contact as it is now.
        yield* repo.update({ accountId, kind: "contact", id: c3!, custom: [], patch: { firstname: "Cyd" } })
        const listed = yield* repo.list(listInput(accountId, "deal", [], { order: "deal_name", direction: "asc" }))
        const firstnames = listed.rows.map((r) => r.derived.contacts?.map((c) => "firstname" in c ? c.firstname : undefined))
        assert.deepStrictEqual(firstnames, [["Cyd", "Ada", "Bo"], ["Ada"]])

        assert.isTrue(yield* repo.unlink({ accountId, link: "deal_contact", from: d1!, to: c1! }))
        assert.isFalse(yield* repo.unlink({ accountId, link: "deal_contact", from: d1!, to: c1! }))
        const after = Option.getOrThrow(yield* repo.get({ accountId, kind: "contact", id: c1!, custom: [] }))
        assert.deepStrictEqual(after.derived.dealIds, [d2!])
      }))

    it.effect("ticket links: contacts_count and deals_count follow links, unlinks and deleted records", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const [t, c1, c2, d] = [freshId(), freshId(), freshId(), freshId()]
        yield* repo.insert({ accountId, kind: "ticket", id: t, custom: [], values: { ticket_name: "T" } })
        yield* repo.insert({ accountId, kind: "contact", id: c1, custom: [], values: {} })
        yield* repo.insert({ accountId, kind: "contact", id: c2, custom: [], values: {} })
        yield* repo.insert({ accountId, kind: "deal", id: d, custom: [], values: { deal_name: "D" } })
        const counts = Effect.map(repo.get({ accountId, kind: "ticket", id: t, custom: [] }), (r) => {
          const derived = Option.getOrThrow(r).derived
          return [derived.contactsCount, derived.dealsCount]
        })
        assert.isTrue(yield* repo.link({ accountId, link: "ticket_contact", from: t, to: c1 }))
        assert.isFalse(yield* repo.link({ accountId, link: "ticket_contact", from: t, to: c1 }))
        assert.isTrue(yield* repo.link({ accountId, link: "ticket_contact", from: t, to: c2 }))
        assert.isTrue(yield* repo.link({ accountId, link: "ticket_deal", from: t, to: d }))
        assert.deepStrictEqual(yield* counts, [2, 1])
        assert.isTrue(yield* repo.unlink({ accountId, link: "ticket_contact", from: t, to: c1 }))
        assert.deepStrictEqual(yield* counts, [1, 1])
        assert.isTrue(yield* repo.delete({ accountId, kind: "contact", id: c2 }))
        assert.isTrue(yield* repo.delete({ accountId, kind: "deal", id: d }))
        assert.deepStrictEqual(yield* counts, [0, 0])
        // A deal's REST shape does not count its tickets.
        yield* repo.insert({ accountId, kind: "deal", id: d, custom: [], values: { deal_name: "D" } })
        assert.isTrue(yield* repo.link({ accountId, link: "ticket_deal", from: t, to: d }))
        const deal = Option.getOrThrow(yield* repo.get({ accountId, kind: "deal", id: d, custom: [] }))
        assert.deepStrictEqual(deal.derived, { contacts: [], companyIds: [] })
      }))

    it.effect("a link needs both records, of the link's kinds, in the account", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const other = yield* newAccountId
        const [deal, contact, theirContact, ticket] = [freshId(), freshId(), freshId(), freshId()]
        yield* repo.insert({ accountId, kind: "deal", id: deal, custom: [], values: { deal_name: "D" } })
        yield* repo.insert({ accountId, kind: "contact", id: contact, custom: [], values: {} })
        yield* repo.insert({ accountId, kind: "ticket", id: ticket, custom: [], values: { ticket_name: "T" } })
        yield* repo.insert({ accountId: other, kind: "contact", id: theirContact, custom: [], values: {} })
        const refused = [
          { accountId, link: "deal_contact", from: deal, to: freshId() },
          { accountId, link: "deal_contact", from: deal, to: theirContact },
          { accountId, link: "deal_contact", from: deal, to: ticket },
          { accountId, link: "deal_contact", from: contact, to: deal },
          { accountId, link: "ticket_deal", from: deal, to: ticket },
          { accountId, link: "ticket_contact", from: ticket, to: deal },
          { accountId: other, link: "deal_contact", from: deal, to: theirContact }
        ] as const
        for (const input of refused) assert.isFalse(yield* repo.link(input), JSON.stringify(input))
        for (const input of refused) assert.isFalse(yield* repo.unlink(input), JSON.stringify(input))
        const read = Option.getOrThrow(yield* repo.get({ accountId, kind: "deal", id: deal, custom: [] }))
        assert.deepStrictEqual(read.derived.contacts, [])
        const theirs = Option.getOrThrow(yield* repo.get({ accountId: other, kind: "contact", id: theirContact, custom: [] }))
        assert.deepStrictEqual(theirs.derived.dealIds, [])
        // Another account cannot unlink the account's link either.
        assert.isTrue(yield* repo.link({ accountId, link: "deal_contact", from: deal, to: contact }))
        assert.isFalse(yield* repo.unlink({ accountId: other, link: "deal_contact", from: deal, to: contact }))
        const still = Option.getOrThrow(yield* repo.get({ accountId, kind: "contact", id: contact, custom: [] }))
        assert.deepStrictEqual(still.derived.dealIds, [deal])
      }))

    it.effect("existing: the given ids the account has a record of the kind with, each once, in order", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const accountId = yield* newAccountId
        const other = yield* newAccountId
        const [a, b, c, d] = [freshId(), freshId(), freshId(), freshId()]
        yield* repo.insert({ accountId, kind: "contact", id: a, custom: [], values: {} })
        yield* repo.insert({ accountId, kind: "contact", id: b, custom: [], values: {} })
        yield* repo.insert({ accountId, kind: "deal", id: c, custom: [], values: { deal_name: "D" } })
        yield* repo.insert({ accountId: other, kind: "contact", id: d, custom: [], values: {} })
        assert.deepStrictEqual(yield* repo.existing(accountId, "contact", [b, c, d, a, b, freshId()]), [b, a])
        assert.deepStrictEqual(yield* repo.existing(accountId, "contact", []), [])
        assert.deepStrictEqual(yield* repo.existing(other, "contact", [a, d]), [d])
      }))

    it.effect("a failed transaction leaves none of its inserts, updates, deletes or links", () =>
      Effect.gen(function*() {
        const repo = yield* RecordRepository
        const transactor = yield* Transactor
        const accountId = yield* newAccountId
        const [kept, doomed, contact] = [freshId(), freshId(), freshId()]
        yield* repo.insert({ accountId, kind: "deal", id: kept, custom: [], values: { deal_name: "Kept" } })
        yield* repo.insert({ accountId, kind: "contact", id: contact, custom: [], values: {} })
        const exit = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* repo.insert({ accountId, kind: "deal", id: doomed, custom: [], values: { deal_name: "Doomed" } })
          yield* repo.update({ accountId, kind: "deal", id: kept, custom: [], patch: { deal_name: "Changed" } })
          yield* repo.link({ accountId, link: "deal_contact", from: kept, to: contact })
          yield* repo.delete({ accountId, kind: "contact", id: contact })
          return yield* Effect.die(new Boom("defect"))
        })))
        assert.isTrue(Exit.isFailure(exit) && Cause.squash(exit.cause) instanceof Boom)
        assert.isTrue(Option.isNone(yield* repo.get({ accountId, kind: "deal", id: doomed, custom: [] })))
        const deal = Option.getOrThrow(yield* repo.get({ accountId, kind: "deal", id: kept, custom: [] }))
        assert.strictEqual(deal.record.values.deal_name, "Kept")
        assert.deepStrictEqual(deal.derived.contacts, [])
        assert.deepStrictEqual(yield* repo.existing(accountId, "contact", [contact]), [contact])
        const all = yield* repo.list(listInput(accountId, "deal", []))
        assert.deepStrictEqual([idsOf(all.rows), all.total], [[kept], 1])
      }))
  })
