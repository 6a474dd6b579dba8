/**
 * The trash over memory, PGlite and PostgreSQL: a delete moves the record there, gone from every
 * read path at once (get, list, search, filters, upsert matches, links) with its links and notes,
 * the other side's derived fields changing and its `-updated` firing; a restore brings the record
 * back with its values, notes and links (a link to a record still in the trash with that one),
 * fires `<kind>-restored`; a purge and the retention delete it for good; permissions and accounts.
 */
import { assert, describe, layer } from "@effect/vitest"
import { type Permission, type Principal } from "@wasl/core/Auth"
import { createNote, listNotes } from "@wasl/core/Notes"
import {
  attachCompanyContacts,
  attachDealContacts,
  BUILTIN_GROUPS,
  createPipeline,
  createProperty,
  createRecord,
  deletePipeline,
  deleteProperty,
  deleteRecord,
  getRecord,
  listHistory,
  listRecords,
  listTrash,
  PropertyHistoryRepository,
  purgeTrashedRecord,
  restoreRecord,
  upsertRecords
} from "@wasl/core/Records"
import { Retention } from "@wasl/core/Retention"
import { DateTime, Effect } from "effect"
import { atTime } from "../../src/testing/record-contract-support.ts"
import { claimEvents, idOf, newPrincipal, propertiesOf, tagOf, USE_CASE_VARIANTS } from "./use-case-support.ts"

const T0 = "2031-02-03T04:05:06.789Z"
const T1 = "2031-02-04T04:05:06.789Z"

describe.each(USE_CASE_VARIANTS)("the trash on $name", ({ enabled, layer: services }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("a delete moves the record to the trash: gone from reads, lists, searches, filters and upserts; its links go", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const contact = idOf(yield* createRecord(principal, "contact", { firstname: "Zed", email: "zed@example.com" }))
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "Linked" }))
          yield* attachDealContacts(principal, deal, { contact_ids: [contact] })
          yield* claimEvents(principal.accountId)

          yield* atTime(T0, deleteRecord(principal, "contact", contact))
          const events = yield* claimEvents(principal.accountId)
          assert.deepStrictEqual(events.map((e) => e.name), ["contact-deleted", "deal-updated"])
          assert.deepStrictEqual((events[1]!.payload as { contacts: ReadonlyArray<unknown> }).contacts, [])
          assert.strictEqual(yield* tagOf(getRecord(principal, "contact", contact)), "NotFound")
          assert.strictEqual((yield* listRecords(principal, "contact", {})).total, 0)
          assert.strictEqual((yield* listRecords(principal, "contact", { search: "zed" })).total, 0)
          const filter = JSON.stringify([{ property: "email", operator: "eq", value: "zed@example.com" }])
          assert.strictEqual((yield* listRecords(principal, "contact", { complex_filters: filter })).total, 0)
          assert.deepStrictEqual(((yield* getRecord(principal, "deal", deal)) as unknown as { contacts: unknown }).contacts, [])
          assert.strictEqual(yield* tagOf(attachDealContacts(principal, deal, { contact_ids: [contact] })), "ValidationFailed")
          // An upsert matching on the trashed record's email creates a new record.
          const [upserted] = yield* upsertRecords(principal, "contact", {
            id_property: "email",
            inputs: [{ id: "zed@example.com", properties: { firstname: "New Zed" } }]
          })
          assert.notStrictEqual(idOf(upserted!), contact)

          const trash = yield* listTrash(principal, "contact", {})
          assert.strictEqual(trash.total, 1)
          const [entry] = trash.items
          assert.deepInclude(entry, { _id: contact, deleted_by: principal.userId, merged_into: null })
          assert.strictEqual(entry!.deleted_at, "2031-02-03T04:05:06.789000Z")
          assert.strictEqual(entry!.expires_at, "2031-03-05T04:05:06.789000Z")
          assert.strictEqual((entry!.record.properties as { firstname: string }).firstname, "Zed")
        }))

      it.effect("a restore brings the record back with its values, notes and links, and fires <kind>-restored", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          yield* createProperty(principal, "contact", {
            name: { en: "Tier" },
            internal_name: "tier",
            type: "string",
            group_id: BUILTIN_GROUPS.contact._id
          })
          const contact = idOf(yield* createRecord(principal, "contact", { firstname: "Ana", tier: "gold" }))
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "D" }))
          const company = idOf(yield* createRecord(principal, "company", { name: "Acme" }))
          yield* attachDealContacts(principal, deal, { contact_ids: [contact] })
          yield* attachCompanyContacts(principal, company, { contact_ids: [contact] })
          yield* createNote(principal, "contact", contact, { body: "Called" })
          yield* deleteRecord(principal, "contact", contact)
          assert.deepInclude(propertiesOf(yield* getRecord(principal, "company", company)), { contact_ids: [], contacts_count: 0 })
          yield* claimEvents(principal.accountId)

          const back = yield* atTime(T1, restoreRecord(principal, "contact", contact))
          assert.deepInclude(propertiesOf(back), { _id: contact, firstname: "Ana", tier: "gold", deal_ids: [deal], company_ids: [company] })
          assert.strictEqual(propertiesOf(back).updated_at, "2031-02-04T04:05:06.789000Z")
          assert.deepStrictEqual((yield* claimEvents(principal.accountId)).map((e) => e.name).sort(), [
            "company-updated",
            "contact-restored",
            "deal-updated"
          ])
          assert.deepInclude(propertiesOf(yield* getRecord(principal, "company", company)), { contact_ids: [contact], contacts_count: 1 })
          const restores = (yield* listHistory(principal, "contact", contact, {})).items.filter((e) => e.source === "restore")
          assert.deepStrictEqual(restores.map((e) => e.property).sort(), ["created_by", "firstname", "tier"])
          const notes = yield* listNotes(principal, "contact", contact, {})
          assert.deepStrictEqual(notes.items.map((n) => n.body), ["Called"])
          assert.strictEqual((yield* listTrash(principal, "contact", {})).total, 0)
          assert.strictEqual(yield* tagOf(restoreRecord(principal, "contact", contact)), "NotFound")
        }))

      it.effect("a link to a record still in the trash comes back with it; a purged side's link does not", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const contact = idOf(yield* createRecord(principal, "contact", { firstname: "C" }))
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "D" }))
          const company = idOf(yield* createRecord(principal, "company", { name: "Co" }))
          yield* attachDealContacts(principal, deal, { contact_ids: [contact] })
          yield* attachCompanyContacts(principal, company, { contact_ids: [contact] })
          yield* deleteRecord(principal, "contact", contact)
          yield* deleteRecord(principal, "deal", deal)
          yield* deleteRecord(principal, "company", company)
          yield* purgeTrashedRecord(principal, "company", company)
          // Purged with its property history.
          const history = yield* PropertyHistoryRepository.use((repo) =>
            repo.page({ accountId: principal.accountId, kind: "company", recordId: company, page: 1, perPage: 10 })
          )
          assert.strictEqual(history.total, 0)

          assert.deepInclude(propertiesOf(yield* restoreRecord(principal, "contact", contact)), { deal_ids: [], company_ids: [] })
          const dealBack = yield* restoreRecord(principal, "deal", deal)
          assert.deepStrictEqual((dealBack as { contacts: ReadonlyArray<{ _id: string }> }).contacts.map((c) => c._id), [contact])
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "contact", contact)).deal_ids, [deal])
          assert.strictEqual(yield* tagOf(restoreRecord(principal, "company", company)), "NotFound")
        }))

      it.effect("a custom property deleted while the record was in the trash leaves no value on restore", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const tier = yield* createProperty(principal, "deal", {
            name: { en: "Tier" },
            internal_name: "tier",
            type: "string",
            group_id: BUILTIN_GROUPS.deal._id
          })
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "D", tier: "gold" }))
          yield* deleteRecord(principal, "deal", deal)
          yield* deleteProperty(principal, "deal", tier._id)
          yield* createProperty(principal, "deal", {
            name: { en: "Tier" },
            internal_name: "tier",
            type: "string",
            group_id: BUILTIN_GROUPS.deal._id
          })
          assert.notProperty(propertiesOf(yield* restoreRecord(principal, "deal", deal)), "tier")
          const filter = JSON.stringify([{ property: "tier", operator: "eq", value: "gold" }])
          assert.strictEqual((yield* listRecords(principal, "deal", { complex_filters: filter })).total, 0)
        }))

      it.effect("a deal whose pipeline was deleted while it was in the trash comes back in the default pipeline's first stage", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const renewals = yield* createPipeline(principal, "deal", {
            name: { en: "Renewals", ar: "التجديدات" },
            stages: [{ internal_name: "renewal_due", name: { en: "Due", ar: "مستحق" }, probability: 0.5, closed: false, won: false }]
          })
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "R", pipeline: renewals._id, deal_stage: "renewal_due" }))
          yield* deleteRecord(principal, "deal", deal)
          yield* deletePipeline(principal, "deal", renewals._id, undefined)
          assert.deepInclude(propertiesOf(yield* restoreRecord(principal, "deal", deal)), {
            pipeline: "default",
            deal_stage: "appointment_scheduled"
          })
        }))

      it.effect("the worker's retention purges entries past WASL_RETENTION_TRASH, and only those", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const old = idOf(yield* createRecord(principal, "product", { name: "Old" }))
          const recent = idOf(yield* createRecord(principal, "product", { name: "Recent" }))
          yield* atTime(T0, deleteRecord(principal, "product", old))
          yield* atTime(T1, deleteRecord(principal, "product", recent))
          const cutoff = DateTime.makeUnsafe("2031-02-04T00:00:00Z")
          while ((yield* Retention.use((r) => r.pruneBatch("trash", cutoff, 100))) > 0) {}
          assert.deepStrictEqual((yield* listTrash(principal, "product", {})).items.map((e) => e._id), [recent])
        }))

      it.effect("another account's trash is not found; restore and purge need the delete permission", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const other = yield* newPrincipal()
          const ticket = idOf(yield* createRecord(owner, "ticket", { ticket_name: "T" }))
          yield* deleteRecord(owner, "ticket", ticket)
          assert.strictEqual((yield* listTrash(other, "ticket", {})).total, 0)
          assert.strictEqual(yield* tagOf(restoreRecord(other, "ticket", ticket)), "NotFound")
          assert.strictEqual(yield* tagOf(purgeTrashedRecord(other, "ticket", ticket)), "NotFound")
          const reader: Principal = { ...owner, permissions: new Set<Permission>(["ticket-index", "ticket-show", "ticket-update"]) }
          assert.strictEqual((yield* listTrash(reader, "ticket", {})).total, 1)
          assert.strictEqual(yield* tagOf(restoreRecord(reader, "ticket", ticket)), "Forbidden")
          assert.strictEqual(yield* tagOf(purgeTrashedRecord(reader, "ticket", ticket)), "Forbidden")
          assert.strictEqual(yield* tagOf(restoreRecord(owner, "ticket", "not-an-id")), "NotFound")
        }))
    })
  })
})
