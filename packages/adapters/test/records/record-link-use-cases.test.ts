/**
 * The link use-cases (deals, contacts and tickets attached and detached) over memory, PGlite and PostgreSQL: what each
 * call answers, idempotence, the `-updated` events of the sides whose derived fields change (and
 * only when a link really changed), ids of other accounts (422 on their key), the record in the
 * path (404) and permissions.
 */
import { assert, describe, layer } from "@effect/vitest"
import { type Permission, type Principal } from "@wasl/core/Auth"
import {
  attachDealContacts,
  attachDealTickets,
  attachTicketContacts,
  attachTicketDeals,
  createRecord,
  detachDealContact,
  detachDealTicket,
  detachTicketContact,
  detachTicketDeal,
  flatContact,
  getRecord,
  type ContactRecordJson,
  type RecordJson
} from "@wasl/core/Records"
import { Effect } from "effect"
import { atTime } from "../../src/testing/record-contract-support.ts"
import { claimEvents, idOf, newPrincipal, propertiesOf, USE_CASE_VARIANTS } from "./use-case-support.ts"

const T0 = "2031-02-03T04:05:06.789Z"
const T1 = "2031-02-03T04:05:07.123Z"

const contactsOf = (json: RecordJson) => (json as { readonly contacts: ReadonlyArray<unknown> }).contacts

describe.each(USE_CASE_VARIANTS)("link use-cases on $name", ({ enabled, layer: services }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("deal attach-contacts: the deal with its contacts; events of the deal and each new contact; again: none", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "Linked" }))
          const ana = idOf(yield* createRecord(principal, "contact", { firstname: "Ana", lastname: "Lima" }))
          const bo = idOf(yield* createRecord(principal, "contact", { firstname: "Bo" }))
          yield* claimEvents(principal.accountId)

          // Linked at one instant: the contacts come in id order (a deal lists them oldest link first).
          const attached = yield* atTime(T0, attachDealContacts(principal, deal, { contact_ids: [ana, bo, ana] }))
          assert.strictEqual(propertiesOf(attached)._id, deal)
          const summaries = [
            { _id: ana, account_id: principal.accountId, firstname: "Ana", lastname: "Lima" },
            { _id: bo, account_id: principal.accountId, firstname: "Bo", lastname: null }
          ].sort((a, b) => a._id < b._id ? -1 : 1)
          assert.deepStrictEqual(contactsOf(attached), summaries)
          const first = yield* claimEvents(principal.accountId)
          assert.deepStrictEqual(first.map((e) => e.name), ["deal-updated", "contact-updated", "contact-updated"])
          assert.deepStrictEqual(first[0]!.payload, attached)
          // Linked later: after them.
          const cy = idOf(yield* createRecord(principal, "contact", { firstname: "Cy" }))
          yield* claimEvents(principal.accountId)
          const later = yield* atTime(T1, attachDealContacts(principal, deal, { contact_ids: [cy] }))
          assert.deepStrictEqual(contactsOf(later).map((c) => (c as { _id: string })._id), [...summaries.map((c) => c._id), cy])
          const events = yield* claimEvents(principal.accountId)
          assert.deepStrictEqual(events.map((e) => e.name), ["deal-updated", "contact-updated"])
          assert.deepStrictEqual(events[0]!.payload, later)
          assert.deepStrictEqual(events[1]!.payload, yield* getRecord(principal, "contact", cy))

          const again = yield* attachDealContacts(principal, deal, { contact_ids: [ana] })
          assert.deepStrictEqual(again, later)
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [], "linking twice fires nothing")
        }))

      it.effect("deal detach-contact: the deal with its remaining contacts as full records; both sides' events", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "Linked" }))
          const ana = idOf(yield* createRecord(principal, "contact", { firstname: "Ana" }))
          const bo = idOf(yield* createRecord(principal, "contact", { firstname: "Bo" }))
          yield* attachDealContacts(principal, deal, { contact_ids: [ana, bo] })
          yield* claimEvents(principal.accountId)

          const detached = yield* detachDealContact(principal, deal, { contact_id: ana })
          const remaining = (yield* getRecord(principal, "contact", bo)) as ContactRecordJson
          assert.deepStrictEqual(contactsOf(detached), [flatContact(remaining)])
          assert.deepStrictEqual(propertiesOf(yield* getRecord(principal, "contact", ana)).deal_ids, [])
          assert.deepStrictEqual((yield* claimEvents(principal.accountId)).map((e) => e.name), ["deal-updated", "contact-updated"])
          yield* detachDealContact(principal, deal, { contact_id: ana })
          assert.deepStrictEqual(yield* claimEvents(principal.accountId), [], "detaching twice fires nothing")
        }))

      it.effect("ticket links: attach answers the records attached, detach the ticket with its counts; only the ticket's event", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const ticket = idOf(yield* createRecord(principal, "ticket", { ticket_name: "Help" }))
          const contact = yield* createRecord(principal, "contact", { firstname: "Cy" })
          const d1 = yield* createRecord(principal, "deal", { deal_name: "One" })
          const d2 = yield* createRecord(principal, "deal", { deal_name: "Two" })
          yield* claimEvents(principal.accountId)

          assert.deepStrictEqual(yield* attachTicketContacts(principal, ticket, { contact_ids: [idOf(contact)] }), [contact])
          assert.deepStrictEqual(yield* attachTicketDeals(principal, ticket, { deal_ids: [idOf(d1), idOf(d2)] }), [d1, d2])
          const events = yield* claimEvents(principal.accountId)
          assert.deepStrictEqual(events.map((e) => e.name), ["ticket-updated", "ticket-updated"])
          assert.deepStrictEqual(
            events.map((e) => [(e.payload as RecordJson).properties.contacts_count, (e.payload as RecordJson).properties.deals_count]),
            [[1, 0], [1, 2]]
          )
          const viaContactPath = yield* detachTicketContact(principal, ticket, { deal_id: idOf(d1) })
          assert.strictEqual(propertiesOf(viaContactPath).deals_count, 1)
          const viaDealPath = yield* detachTicketDeal(principal, ticket, { deal_id: idOf(d2) })
          assert.strictEqual(propertiesOf(viaDealPath).deals_count, 0)
          const noContact = yield* detachTicketContact(principal, ticket, { contact_id: idOf(contact) })
          assert.deepStrictEqual([propertiesOf(noContact).contacts_count, propertiesOf(noContact).deals_count], [0, 0])
          assert.deepStrictEqual((yield* claimEvents(principal.accountId)).map((e) => e.name), [
            "ticket-updated",
            "ticket-updated",
            "ticket-updated"
          ])
        }))

      it.effect("deal attach-tickets / detach-ticket link from the deal's side and fire the ticket's event", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const deal = idOf(yield* createRecord(principal, "deal", { deal_name: "Side" }))
          const ticket = idOf(yield* createRecord(principal, "ticket", { ticket_name: "Other side" }))
          yield* claimEvents(principal.accountId)
          const attached = yield* attachDealTickets(principal, deal, { ticket_ids: [ticket] })
          assert.strictEqual(propertiesOf(attached)._id, deal)
          assert.deepStrictEqual((yield* claimEvents(principal.accountId)).map((e) => e.name), ["ticket-updated"])
          assert.strictEqual(propertiesOf(yield* getRecord(principal, "ticket", ticket)).deals_count, 1)
          yield* detachDealTicket(principal, deal, { ticket_id: ticket })
          assert.strictEqual(propertiesOf(yield* getRecord(principal, "ticket", ticket)).deals_count, 0)
          assert.deepStrictEqual((yield* claimEvents(principal.accountId)).map((e) => e.name), ["ticket-updated"])
        }))

      it.effect("ids of another account are 422 on their key, another account's record in the path 404; nothing changes", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const other = yield* newPrincipal()
          const deal = idOf(yield* createRecord(owner, "deal", { deal_name: "Guarded" }))
          const mine = idOf(yield* createRecord(owner, "contact", { firstname: "Mine" }))
          const theirs = idOf(yield* createRecord(other, "contact", { firstname: "Theirs" }))
          const theirDeal = idOf(yield* createRecord(other, "deal", { deal_name: "Not yours" }))
          yield* claimEvents(owner.accountId)

          const foreign = yield* Effect.flip(attachDealContacts(owner, deal, { contact_ids: [mine, theirs, 7] }))
          assert.strictEqual(foreign._tag, "ValidationFailed")
          if (foreign._tag === "ValidationFailed") assert.deepStrictEqual(Object.keys(foreign.errors), ["contact_ids.2", "contact_ids.1"])
          const detachForeign = yield* Effect.flip(detachDealContact(owner, deal, { contact_id: theirs }))
          assert.strictEqual(detachForeign._tag, "ValidationFailed")
          assert.strictEqual((yield* Effect.flip(attachDealContacts(owner, theirDeal, { contact_ids: [mine] })))._tag, "NotFound")
          assert.deepStrictEqual(contactsOf(yield* getRecord(owner, "deal", deal)), [])
          assert.deepStrictEqual(yield* claimEvents(owner.accountId), [])
        }))

      it.effect("a link call needs the update permission of the record in its path", () =>
        Effect.gen(function*() {
          const admin = yield* newPrincipal()
          const deal = idOf(yield* createRecord(admin, "deal", { deal_name: "Perm" }))
          const contact = idOf(yield* createRecord(admin, "contact", { firstname: "P" }))
          const reader: Principal = { ...admin, permissions: new Set<Permission>(["deal-show", "contact-update"]) }
          assert.strictEqual((yield* Effect.flip(attachDealContacts(reader, deal, { contact_ids: [contact] })))._tag, "Forbidden")
          assert.deepStrictEqual(contactsOf(yield* getRecord(admin, "deal", deal)), [])
        }))
    })
  })
})
