/**
 * The record use-cases (create, get, update, delete) over memory, PGlite and PostgreSQL: REST
 * shapes, validation, permissions, account isolation, and their outbox events.
 */
import { assert, describe, layer } from "@effect/vitest"
import { type Permission, type Principal } from "@wasl/core/Auth"
import { Transactor } from "@wasl/core/Deployment"
import {
  BUILTIN_GROUPS,
  createProperty,
  createRecord,
  deleteRecord,
  getRecord,
  listRecords,
  RecordRepository,
  updateRecord
} from "@wasl/core/Records"
import { Effect } from "effect"
import { listInput } from "../../src/testing/record-contract-support.ts"
import { claimEvents, newPrincipal, propertiesOf, USE_CASE_VARIANTS } from "./use-case-support.ts"

/** The ids of the account's deals. */
const dealIdsOf = (accountId: number) =>
  Effect.map(
    RecordRepository.use((repo) => repo.list(listInput(accountId, "deal", []))),
    (page) => page.rows.map((row) => row.record._id)
  )

describe.each(USE_CASE_VARIANTS)("record use-cases on $name", ({ enabled, layer: services }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("creates a deal: the REST shape, $date close_date, forcast_amount, the created event", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const deal = yield* createRecord(principal, "deal", {
            deal_name: "  Big deal  ",
            amount: "1200.5",
            close_date: "2026-12-01",
            forecast_amount: 900,
            deal_stage: "qualified_to_buy"
          })
          const p = propertiesOf(deal)
          assert.match(p._id as string, /^[0-9a-f]{24}$/)
          assert.strictEqual(p.account_id, principal.accountId)
          assert.strictEqual(p.deal_name, "Big deal")
          assert.strictEqual(p.amount, 1200.5)
          assert.deepStrictEqual(p.close_date, { $date: { $numberLong: String(Date.UTC(2026, 11, 1)) } })
          assert.strictEqual(p.forecast_amount, 900)
          assert.strictEqual(p.forcast_amount, 900)
          assert.strictEqual(p.deal_stage, "qualified_to_buy")
          assert.strictEqual(p.pipeline, "default")
          assert.strictEqual(p.next_steps, null)
          assert.match(p.created_at as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
          assert.strictEqual(p.created_at, p.updated_at)
          assert.deepStrictEqual(Object.keys(p), [
            "_id",
            "account_id",
            "deal_name",
            "amount",
            "pipeline",
            "deal_stage",
            "close_date",
            "forecast_amount",
            "forcast_amount",
            "next_steps",
            "company_ids",
            "created_at",
            "updated_at"
          ])
          assert.deepStrictEqual((deal as { contacts: unknown }).contacts, [])
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [{ name: "deal-created", payload: deal }])
          // Read back: the same shape.
          assert.deepStrictEqual(yield* getRecord(principal, "deal", p._id as string), deal)
        }))

      it.effect("accepts forcast_amount as forecast_amount, and keeps custom values", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          yield* createProperty(principal, "deal", {
            name: { en: "Score" },
            internal_name: "score",
            type: "number",
            group_id: BUILTIN_GROUPS.deal._id
          })
          yield* claimEvents(principal.accountId)
          const deal = yield* createRecord(principal, "deal", { deal_name: "D", forcast_amount: 5, score: "7" })
          const p = propertiesOf(deal)
          assert.strictEqual(p.forecast_amount, 5)
          assert.strictEqual(p.forcast_amount, 5)
          assert.strictEqual(p.score, 7)
          // The schema's order: the fixed keys, the timestamps last among them, then the custom values.
          assert.deepStrictEqual(Object.keys(p).slice(-3), ["created_at", "updated_at", "score"])
          const cleared = yield* updateRecord(principal, "deal", p._id as string, { score: null })
          assert.isFalse(Object.hasOwn(cleared.properties, "score"))
        }))

      it.effect("validation: required deal_name, an unknown property; no record and no event", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const missing = yield* Effect.flip(createRecord(principal, "deal", { amount: 3 }))
          assert.strictEqual(missing._tag, "ValidationFailed")
          if (missing._tag === "ValidationFailed") {
            assert.deepStrictEqual(Object.keys(missing.errors), ["deal_name"])
          }
          const unknown = yield* Effect.flip(createRecord(principal, "deal", { deal_name: "D", colour: "red" }))
          assert.strictEqual(unknown._tag, "ValidationFailed")
          if (unknown._tag === "ValidationFailed") assert.deepStrictEqual(Object.keys(unknown.errors), ["colour"])
          assert.deepStrictEqual(yield* dealIdsOf(principal.accountId), [])
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [])
        }))

      it.effect("permissions: each action needs its <kind>-<action> permission", () =>
        Effect.gen(function*() {
          const admin = yield* newPrincipal()
          const deal = yield* createRecord(admin, "deal", { deal_name: "D" })
          const id = propertiesOf(deal)._id as string
          const reader: Principal = { ...admin, permissions: new Set<Permission>(["deal-show"]) }
          assert.strictEqual((yield* Effect.flip(createRecord(reader, "deal", { deal_name: "X" })))._tag, "Forbidden")
          assert.strictEqual((yield* Effect.flip(updateRecord(reader, "deal", id, { deal_name: "X" })))._tag, "Forbidden")
          assert.strictEqual((yield* Effect.flip(deleteRecord(reader, "deal", id)))._tag, "Forbidden")
          assert.strictEqual((yield* Effect.flip(getRecord(reader, "contact", id)))._tag, "Forbidden")
          assert.deepStrictEqual(yield* getRecord(reader, "deal", id), deal)
          // A token without the ability is refused even with the permission.
          const token: Principal = { ...admin, kind: "token", abilities: ["deal-show"], tokenId: 1 }
          assert.strictEqual((yield* Effect.flip(createRecord(token, "deal", { deal_name: "X" })))._tag, "Forbidden")
        }))

      it.effect("update and delete: partial patch, events, the deleted record as it was", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const deal = yield* createRecord(principal, "deal", { deal_name: "D", amount: 10, next_steps: "call" })
          const id = propertiesOf(deal)._id as string
          yield* claimEvents(principal.accountId)

          const updated = yield* updateRecord(principal, "deal", id, { amount: 20, next_steps: null })
          const p = propertiesOf(updated)
          assert.strictEqual(p.deal_name, "D")
          assert.strictEqual(p.amount, 20)
          assert.strictEqual(p.next_steps, null)
          assert.strictEqual(p.created_at, propertiesOf(deal).created_at)
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [{ name: "deal-updated", payload: updated }])

          const cleared = yield* Effect.flip(updateRecord(principal, "deal", id, { deal_name: null }))
          assert.strictEqual(cleared._tag, "ValidationFailed")
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [])

          const deleted = yield* deleteRecord(principal, "deal", id)
          assert.deepStrictEqual(deleted, updated)
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [{ name: "deal-deleted", payload: updated }])
          assert.strictEqual((yield* Effect.flip(getRecord(principal, "deal", id)))._tag, "NotFound")
          assert.strictEqual((yield* Effect.flip(deleteRecord(principal, "deal", id)))._tag, "NotFound")
          assert.strictEqual((yield* Effect.flip(updateRecord(principal, "deal", id, { amount: 1 })))._tag, "NotFound")
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [])
        }))

      it.effect("deleting a deal removes its links and notes; its own -deleted fires, and -updated for the contact that showed the link", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const contact = yield* createRecord(principal, "contact", { firstname: "Ada", lastname: "Lovelace" })
          const deal = yield* createRecord(principal, "deal", { deal_name: "D" })
          const contactId = propertiesOf(contact)._id as string
          const dealId = propertiesOf(deal)._id as string
          const repo = yield* RecordRepository
          assert.isTrue(
            yield* repo.link({ accountId: principal.accountId, link: "deal_contact", from: dealId, to: contactId })
          )
          const linked = yield* getRecord(principal, "deal", dealId)
          assert.deepStrictEqual((linked as { contacts: unknown }).contacts, [
            { _id: contactId, account_id: principal.accountId, firstname: "Ada", lastname: "Lovelace" }
          ])
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "contact", contactId)).deal_ids, [dealId])
          yield* claimEvents(principal.accountId)

          yield* deleteRecord(principal, "deal", dealId)
          assert.deepStrictEqual(
            (yield* claimEvents(principal.accountId)).map((e) => e.name),
            ["deal-deleted", "contact-updated"]
          )
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "contact", contactId)).deal_ids, [])
          // The link is gone with the deal: a new deal with its id has no contacts.
          yield* repo.insert({ accountId: principal.accountId, kind: "deal", id: dealId, custom: [], values: { deal_name: "D" } })
          assert.deepStrictEqual(((yield* getRecord(principal, "deal", dealId)) as { contacts: unknown }).contacts, [])
        }))

      it.effect("lists: the query string read into filters, search, order and page; every bad key in one 422", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const other = yield* newPrincipal()
          const [small, big, none] = [
            yield* createRecord(principal, "deal", { deal_name: "Small deal", amount: 5 }),
            yield* createRecord(principal, "deal", { deal_name: "Big deal", amount: 500 }),
            yield* createRecord(principal, "deal", { deal_name: "No amount" })
          ]
          yield* createRecord(other, "deal", { deal_name: "Their deal", amount: 50 })
          const page = yield* listRecords(principal, "deal", {
            complex_filters: [{ property: "amount", operator: "gte", value: "1" }],
            search: "DEAL",
            order: "amount",
            direction: "asc",
            per_page: "1",
            page: "2"
          })
          assert.deepStrictEqual(page, { items: [big], total: 2, page: 2, perPage: 1 })
          const all = yield* listRecords(principal, "deal", { order: "amount", direction: "desc" })
          assert.deepStrictEqual(all.items, [big, small, none])
          const bad = yield* Effect.flip(listRecords(principal, "deal", { order: "colour", per_page: "0", direction: "up" }))
          assert.strictEqual(bad._tag, "ValidationFailed")
          if (bad._tag === "ValidationFailed") assert.deepStrictEqual(Object.keys(bad.errors).sort(), ["direction", "order", "per_page"])
          const reader: Principal = { ...principal, permissions: new Set<Permission>(["deal-show"]) }
          assert.strictEqual((yield* Effect.flip(listRecords(reader, "deal", {})))._tag, "Forbidden")
        }))

      it.effect("another account's id, an unknown id and a malformed id are NotFound", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const other = yield* newPrincipal()
          const deal = yield* createRecord(owner, "deal", { deal_name: "Mine" })
          const id = propertiesOf(deal)._id as string
          yield* claimEvents(owner.accountId)
          for (const attempt of [id, "0123456789abcdef01234567", "not-an-id"]) {
            assert.strictEqual((yield* Effect.flip(getRecord(other, "deal", attempt)))._tag, "NotFound")
            assert.strictEqual((yield* Effect.flip(updateRecord(other, "deal", attempt, { deal_name: "X" })))._tag, "NotFound")
            assert.strictEqual((yield* Effect.flip(deleteRecord(other, "deal", attempt)))._tag, "NotFound")
          }
          // The same id under another kind of the owner's account is not found either.
          assert.strictEqual((yield* Effect.flip(getRecord(owner, "ticket", id)))._tag, "NotFound")
          assert.deepStrictEqual(yield* getRecord(owner, "deal", id), deal)
          assert.deepStrictEqual(yield* claimEvents(other.accountId), [])
          assert.deepStrictEqual(yield* claimEvents(owner.accountId), [])
        }))

      it.effect("a write rolled back by its enclosing transaction leaves neither the record nor its event", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const transactor = yield* Transactor
          const failed = yield* Effect.flip(transactor.transaction(Effect.gen(function*() {
            yield* createRecord(principal, "deal", { deal_name: "Doomed" })
            return yield* Effect.fail("abort" as const)
          })))
          assert.strictEqual(failed, "abort")
          assert.deepStrictEqual(yield* dealIdsOf(principal.accountId), [])
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [])
        }))
    })
  })
})
