/**
 * Companies linked to contacts, deals and tickets, over memory, PGlite and PostgreSQL: the calls
 * from either side, the derived ids and counts on both sides, the `-updated` events of both sides
 * (only when a link really changed), the link filters of every kind that links, the links going
 * with a deleted record, and the rules every link call has (another account's ids 422, its record
 * in the path 404, the update permission of the path's record).
 */
import { assert, describe, layer } from "@effect/vitest"
import { type Permission, type Principal } from "@wasl/core/Auth"
import {
  attachCompanyContacts,
  attachCompanyDeals,
  attachCompanyTickets,
  attachContactCompanies,
  attachDealCompanies,
  attachTicketCompanies,
  attachTicketContacts,
  createRecord,
  deleteRecord,
  detachCompanyContact,
  detachCompanyDeal,
  detachContactCompany,
  detachTicketCompany,
  getRecord,
  listRecords,
  type ObjectKind
} from "@wasl/core/Records"
import { Effect } from "effect"
import { claimEvents, idOf, newPrincipal, propertiesOf, USE_CASE_VARIANTS } from "./use-case-support.ts"

const sorted = (ids: ReadonlyArray<string>) => [...ids].sort()

describe.each(USE_CASE_VARIANTS)("company links on $name", ({ enabled, layer: services }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("from the company: its ids and counts, the other side's company_ids, both sides' events; again: none", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const company = idOf(yield* createRecord(principal, "company", { name: "Acme" }))
          const ana = idOf(yield* createRecord(principal, "contact", { firstname: "Ana" }))
          const bo = idOf(yield* createRecord(principal, "contact", { firstname: "Bo" }))
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "Big" }))
          const ticket = idOf(yield* createRecord(principal, "ticket", { ticket_name: "Broken" }))
          const fresh = propertiesOf(yield* getRecord(principal, "company", company))
          assert.deepInclude(fresh, { contact_ids: [], deal_ids: [], ticket_ids: [], contacts_count: 0, deals_count: 0, tickets_count: 0 })
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "contact", ana)).company_ids, [])
          yield* claimEvents(principal.accountId)

          const withContacts = propertiesOf(yield* attachCompanyContacts(principal, company, { contact_ids: [ana, bo, ana] }))
          assert.deepStrictEqual(withContacts.contact_ids, sorted([ana, bo]))
          assert.strictEqual(withContacts.contacts_count, 2)
          const events = yield* claimEvents(principal.accountId)
          assert.deepStrictEqual(events.map((e) => e.name), ["company-updated", "contact-updated", "contact-updated"])
          assert.deepStrictEqual((events[1]!.payload as { properties: { company_ids: unknown } }).properties.company_ids, [company])
          yield* attachCompanyContacts(principal, company, { contact_ids: [ana] })
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [])

          yield* attachCompanyDeals(principal, company, { deal_ids: [deal] })
          yield* attachCompanyTickets(principal, company, { ticket_ids: [ticket] })
          assert.deepStrictEqual((yield* claimEvents(principal.accountId)).map((e) => e.name), [
            "company-updated",
            "deal-updated",
            "company-updated",
            "ticket-updated"
          ])
          const linked = propertiesOf(yield* getRecord(principal, "company", company))
          assert.deepInclude(linked, { deal_ids: [deal], ticket_ids: [ticket], deals_count: 1, tickets_count: 1 })
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "deal", deal)).company_ids, [company])
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "ticket", ticket)).company_ids, [company])

          const detached = propertiesOf(yield* detachCompanyContact(principal, company, { contact_id: bo }))
          assert.deepStrictEqual(detached.contact_ids, [ana])
          assert.strictEqual(detached.contacts_count, 1)
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "contact", bo)).company_ids, [])
          yield* detachCompanyDeal(principal, company, { deal_id: deal })
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "company", company)).deals_count, 0)
        }))

      it.effect("from the contact's, deal's and ticket's side: the record answered with its company_ids", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const [acme, globex] = [
            idOf(yield* createRecord(principal, "company", { name: "Acme" })),
            idOf(yield* createRecord(principal, "company", { name: "Globex" }))
          ]
          const contact = idOf(yield* createRecord(principal, "contact", { firstname: "Cy" }))
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "D" }))
          const ticket = idOf(yield* createRecord(principal, "ticket", { ticket_name: "T" }))
          yield* claimEvents(principal.accountId)
          const answered = propertiesOf(yield* attachContactCompanies(principal, contact, { company_ids: [acme, globex] }))
          assert.deepStrictEqual(answered._id, contact)
          assert.deepStrictEqual(answered.company_ids, sorted([acme, globex]))
          assert.deepStrictEqual((yield* claimEvents(principal.accountId)).map((e) => e.name), [
            "contact-updated",
            "company-updated",
            "company-updated"
          ])
          assert.deepStrictEqual(propertiesOf(yield* attachDealCompanies(principal, deal, { company_ids: [acme] })).company_ids, [acme])
          assert.deepStrictEqual(propertiesOf(yield* attachTicketCompanies(principal, ticket, { company_ids: [globex] })).company_ids, [globex])
          assert.deepStrictEqual(propertiesOf(yield* detachContactCompany(principal, contact, { company_id: acme })).company_ids, [globex])
          assert.deepStrictEqual(propertiesOf(yield* detachTicketCompany(principal, ticket, { company_id: globex })).company_ids, [])
          assert.deepInclude(propertiesOf(yield* getRecord(principal, "company", acme)), {
            contact_ids: [],
            deal_ids: [deal],
            contacts_count: 0,
            deals_count: 1
          })
        }))

      it.effect("lists filter on company_ids and contact_ids on every kind that links", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const acme = idOf(yield* createRecord(principal, "company", { name: "Acme" }))
          const other = idOf(yield* createRecord(principal, "company", { name: "Other" }))
          const [c1, c2] = [
            idOf(yield* createRecord(principal, "contact", { firstname: "One" })),
            idOf(yield* createRecord(principal, "contact", { firstname: "Two" }))
          ]
          const [d1, d2] = [
            idOf(yield* createRecord(principal, "deal", { deal_name: "One" })),
            idOf(yield* createRecord(principal, "deal", { deal_name: "Two" }))
          ]
          const [t1, t2] = [
            idOf(yield* createRecord(principal, "ticket", { ticket_name: "One" })),
            idOf(yield* createRecord(principal, "ticket", { ticket_name: "Two" }))
          ]
          yield* attachCompanyContacts(principal, acme, { contact_ids: [c1] })
          yield* attachCompanyDeals(principal, acme, { deal_ids: [d1] })
          yield* attachCompanyTickets(principal, acme, { ticket_ids: [t1] })
          yield* attachCompanyContacts(principal, other, { contact_ids: [c2] })
          const ids = (kind: ObjectKind, property: string, value: ReadonlyArray<string>) =>
            Effect.map(
              listRecords(principal, kind, { complex_filters: JSON.stringify([{ property, operator: "in", value }]) }),
              (page) => sorted(page.items.map(idOf))
            )
          assert.deepStrictEqual(yield* ids("contact", "company_ids", [acme]), [c1])
          assert.deepStrictEqual(yield* ids("deal", "company_ids", [acme]), [d1])
          assert.deepStrictEqual(yield* ids("ticket", "company_ids", [acme]), [t1])
          assert.deepStrictEqual(yield* ids("company", "contact_ids", [c1, c2]), sorted([acme, other]))
          assert.deepStrictEqual(yield* ids("company", "deal_ids", [d1]), [acme])
          assert.deepStrictEqual(yield* ids("company", "ticket_ids", [t2]), [])
          // A ticket filters on its contacts and deals, as a deal does on its contacts.
          yield* attachTicketCompanies(principal, t2, { company_ids: [other] })
          assert.deepStrictEqual(yield* ids("ticket", "company_ids", [acme, other]), sorted([t1, t2]))
          yield* attachTicketContacts(principal, t2, { contact_ids: [c2] })
          assert.deepStrictEqual(yield* ids("ticket", "contact_ids", [c2]), [t2])
          assert.deepStrictEqual(yield* ids("deal", "contact_ids", [c2]), [])
          assert.deepStrictEqual(yield* ids("deal", "company_ids", [other]), [])
          void d2
        }))

      it.effect("a deleted record takes its company links with it: the company's ids and counts drop", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const company = idOf(yield* createRecord(principal, "company", { name: "Acme" }))
          const contact = idOf(yield* createRecord(principal, "contact", { firstname: "Gone" }))
          yield* attachCompanyContacts(principal, company, { contact_ids: [contact] })
          yield* deleteRecord(principal, "contact", contact)
          assert.deepInclude(propertiesOf(yield* getRecord(principal, "company", company)), { contact_ids: [], contacts_count: 0 })
        }))

      it.effect("another account's ids are 422 on their key, its company 404; the path record's update permission", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const other = yield* newPrincipal()
          const company = idOf(yield* createRecord(owner, "company", { name: "Mine" }))
          const theirs = idOf(yield* createRecord(other, "contact", { firstname: "Theirs" }))
          const theirCompany = idOf(yield* createRecord(other, "company", { name: "Theirs" }))
          const mine = idOf(yield* createRecord(owner, "contact", { firstname: "Mine" }))
          const foreign = yield* Effect.flip(attachCompanyContacts(owner, company, { contact_ids: [mine, theirs] }))
          assert.strictEqual(foreign._tag, "ValidationFailed")
          if (foreign._tag === "ValidationFailed") assert.deepStrictEqual(Object.keys(foreign.errors), ["contact_ids.1"])
          const foreignCompany = yield* Effect.flip(attachContactCompanies(owner, mine, { company_ids: [theirCompany] }))
          assert.strictEqual(foreignCompany._tag, "ValidationFailed")
          assert.strictEqual((yield* Effect.flip(attachCompanyContacts(owner, theirCompany, { contact_ids: [mine] })))._tag, "NotFound")
          const reader: Principal = { ...owner, permissions: new Set<Permission>(["company-show", "contact-update"]) }
          assert.strictEqual((yield* Effect.flip(attachCompanyContacts(reader, company, { contact_ids: [mine] })))._tag, "Forbidden")
          assert.deepStrictEqual(propertiesOf(yield* getRecord(owner, "company", company)).contact_ids, [])
        }))
    })
  })
})
