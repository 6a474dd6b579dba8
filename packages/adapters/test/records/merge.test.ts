/**
 * Merging records over memory, PGlite and PostgreSQL: the kept record's empty properties take the
 * other's values, the other's notes and links move over (a link both had is kept once), the other
 * goes to the trash with `merged_into`, the events, the refusals (itself, another account's, a kind
 * that does not merge, permissions), and a merge racing an update of the record it empties.
 */
import { assert, describe, layer } from "@effect/vitest"
import { type Permission, type Principal } from "@wasl/core/Auth"
import { createNote, listNotes } from "@wasl/core/Notes"
import {
  attachCompanyContacts,
  attachDealContacts,
  BUILTIN_GROUPS,
  createProperty,
  createRecord,
  getRecord,
  listHistory,
  listTrash,
  mergeRecords,
  restoreRecord,
  updateRecord
} from "@wasl/core/Records"
import { Effect, Exit } from "effect"
import { claimEvents, errorsOf, idOf, newPrincipal, propertiesOf, tagOf, USE_CASE_VARIANTS } from "./use-case-support.ts"

describe.each(USE_CASE_VARIANTS)("merge on $name", ({ enabled, layer: services }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("the kept record fills its gaps from the other; notes and links move; the other goes to the trash", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          yield* createProperty(principal, "contact", {
            name: { en: "Tier" },
            internal_name: "tier",
            type: "string",
            group_id: BUILTIN_GROUPS.contact._id
          })
          const kept = idOf(yield* createRecord(principal, "contact", { firstname: "Ana", email: "ana@example.com" }))
          const other = idOf(yield* createRecord(principal, "contact", {
            firstname: "Anna",
            phone: "+966501234567",
            tier: "gold"
          }))
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "Shared" }))
          const only = idOf(yield* createRecord(principal, "deal", { deal_name: "Only the other's" }))
          const company = idOf(yield* createRecord(principal, "company", { name: "Acme" }))
          yield* attachDealContacts(principal, deal, { contact_ids: [kept, other] })
          yield* attachDealContacts(principal, only, { contact_ids: [other] })
          yield* attachCompanyContacts(principal, company, { contact_ids: [other] })
          yield* createNote(principal, "contact", other, { body: "From the import" })
          yield* claimEvents(principal.accountId)

          const merged = propertiesOf(yield* mergeRecords(principal, "contact", kept, { from: other }))
          assert.deepInclude(merged, { _id: kept, firstname: "Ana", email: "ana@example.com", phone: "+966501234567", tier: "gold" })
          assert.deepStrictEqual(merged.deal_ids, [deal, only].sort())
          assert.deepStrictEqual(merged.company_ids, [company])
          const merges = (yield* listHistory(principal, "contact", kept, {})).items.filter((e) => e.source === "merge")
          assert.deepStrictEqual(merges.map((e) => [e.property, e.value, e.previous_value]).sort(), [
            ["phone", "+966501234567", null],
            ["tier", "gold", null]
          ])
          const names = (yield* claimEvents(principal.accountId)).map((e) => e.name)
          assert.deepStrictEqual(names.slice(0, 2), ["contact-updated", "contact-deleted"])
          assert.includeMembers(names, ["deal-updated", "company-updated"])
          assert.deepStrictEqual((yield* listNotes(principal, "contact", kept, {})).items.map((n) => n.body), ["From the import"])
          const shared = yield* getRecord(principal, "deal", deal)
          assert.deepStrictEqual((shared as { contacts: ReadonlyArray<{ _id: string }> }).contacts.map((c) => c._id), [kept])
          assert.strictEqual(yield* tagOf(getRecord(principal, "contact", other)), "NotFound")
          const [entry] = (yield* listTrash(principal, "contact", {})).items
          assert.deepInclude(entry, { _id: other, merged_into: kept })
          // Restoring the other brings it back, emptied of what moved.
          assert.deepInclude(propertiesOf(yield* restoreRecord(principal, "contact", other)), { firstname: "Anna", deal_ids: [] })
        }))

      it.effect("refuses itself, another account's record and a kind that does not merge; needs update and delete", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const stranger = yield* newPrincipal()
          const a = idOf(yield* createRecord(owner, "company", { name: "A" }))
          const b = idOf(yield* createRecord(owner, "company", { name: "B" }))
          const theirs = idOf(yield* createRecord(stranger, "company", { name: "Theirs" }))
          assert.deepStrictEqual(yield* errorsOf(mergeRecords(owner, "company", a, { from: a })), {
            from: ["The from field and _id must be different."]
          })
          assert.deepStrictEqual(yield* errorsOf(mergeRecords(owner, "company", a, { from: theirs })), {
            from: ["The selected from is invalid."]
          })
          assert.deepStrictEqual(Object.keys(yield* errorsOf(mergeRecords(owner, "company", a, {}))), ["from"])
          assert.strictEqual(yield* tagOf(mergeRecords(stranger, "company", a, { from: theirs })), "NotFound")
          const invoice = idOf(yield* createRecord(owner, "invoice", { invoice_number: "I-1" }))
          assert.strictEqual(yield* tagOf(mergeRecords(owner, "invoice", invoice, { from: invoice })), "NotFound")
          const editor: Principal = { ...owner, permissions: new Set<Permission>(["company-show", "company-update"]) }
          assert.strictEqual(yield* tagOf(mergeRecords(editor, "company", a, { from: b })), "Forbidden")
          assert.strictEqual(propertiesOf(yield* getRecord(owner, "company", b)).name, "B")
        }))

      it.effect("a merge racing updates of both records: each update lands before it or finds the other gone", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const kept = idOf(yield* createRecord(principal, "deal", { deal_name: "Kept" }))
          const other = idOf(yield* createRecord(principal, "deal", { deal_name: "Other" }))
          const [merge, updateOther, updateKept] = yield* Effect.all([
            Effect.exit(mergeRecords(principal, "deal", kept, { from: other })),
            Effect.exit(updateRecord(principal, "deal", other, { amount: 500 })),
            Effect.exit(updateRecord(principal, "deal", kept, { next_steps: "call" }))
          ], { concurrency: "unbounded" })
          assert.isTrue(Exit.isSuccess(merge))
          assert.isTrue(Exit.isSuccess(updateKept))
          const now = propertiesOf(yield* getRecord(principal, "deal", kept))
          assert.strictEqual(now.next_steps, "call")
          // The other's update either went first (its amount carried over) or found it in the trash.
          if (Exit.isSuccess(updateOther)) assert.strictEqual(now.amount, 500)
          else assert.strictEqual(now.amount, null)
        }))
    })
  })
})
