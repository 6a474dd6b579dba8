import { Effect, Schema, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  attachCompanyContacts,
  attachCompanyDeals,
  attachCompanyTickets,
  attachContactCompanies,
  attachDealCompanies,
  attachTicketCompanies,
  detachCompanyContact,
  detachCompanyDeal,
  detachCompanyTicket,
  detachContactCompany,
  detachDealCompany,
  detachTicketCompany,
  attachDealContacts,
  attachDealTickets,
  attachTicketContacts,
  attachTicketDeals,
  detachDealContact,
  detachDealTicket,
  detachTicketContact,
  detachTicketDeal,
  type ContactRecordJson,
  type DealRecordJson,
  type RecordJson
} from "@wasl/core/Records"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { MODIFIED } from "../messages.ts"
import { AccountSummary, accountSummary } from "../property-views.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

const encodeAccount = Schema.encodeSync(Schema.NullOr(AccountSummary))

/** In the ticket attach-contacts answer a contact's properties embed its account. */
const withAccount = (accountId: number, contacts: ReadonlyArray<RecordJson>) =>
  Effect.map(accountSummary(accountId), (account) => {
    const embedded = encodeAccount(account)
    return contacts.map((c) => ({ ...c, properties: { ...c.properties, account: embedded } }) as ContactRecordJson)
  })

/** Ticket attach-deals lists each deal as `{ properties: { _id, deal_stage, deal_name, amount } }`. */
const dealBrief = (deal: RecordJson) => {
  const p = deal.properties as Record<string, unknown>
  return {
    properties: {
      _id: p._id as string,
      deal_stage: (p.deal_stage ?? null) as string | null,
      deal_name: (p.deal_name ?? null) as string | null,
      amount: (p.amount ?? null) as number | null
    }
  }
}

/** These answers are a deal's shape: the use-cases read the record of kind deal. */
const asDeal = (record: RecordJson) => record as DealRecordJson
/** These answers are a contact's shape: the use-cases read the record of kind contact. */
const asContact = (record: RecordJson) => record as ContactRecordJson

/** The handlers of the `recordLinks` group: attach and detach between deals, contacts, tickets and companies. */
export const RecordLinkHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "recordLinks">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "recordLinks", (handlers) =>
  handlers
    .handle("dealAttachContacts", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: asDeal(yield* domain(attachDealContacts(yield* CurrentPrincipal, params.id, payload))), message: MODIFIED }
      }))
    .handle("dealDetachContact", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: asDeal(yield* domain(detachDealContact(yield* CurrentPrincipal, params.id, payload))), message: MODIFIED }
      }))
    .handle("dealAttachTickets", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: asDeal(yield* domain(attachDealTickets(yield* CurrentPrincipal, params.id, payload))), message: MODIFIED }
      }))
    .handle("dealDetachTicket", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: asDeal(yield* domain(detachDealTicket(yield* CurrentPrincipal, params.id, payload))), message: MODIFIED }
      }))
    .handle("ticketDetachContact", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(detachTicketContact(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("ticketDetachDeal", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(detachTicketDeal(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("ticketAttachContacts", ({ params, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const contacts = yield* domain(attachTicketContacts(principal, params.id, payload))
        return { data: yield* withAccount(principal.accountId, contacts) }
      }))
    .handle("ticketAttachDeals", ({ params, payload }) =>
      Effect.gen(function*() {
        const deals = yield* domain(attachTicketDeals(yield* CurrentPrincipal, params.id, payload))
        return { data: deals.map(dealBrief) }
      }))
    .handle("companyAttachContacts", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(attachCompanyContacts(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("companyDetachContact", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(detachCompanyContact(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("companyAttachDeals", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(attachCompanyDeals(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("companyDetachDeal", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(detachCompanyDeal(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("companyAttachTickets", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(attachCompanyTickets(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("companyDetachTicket", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(detachCompanyTicket(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("contactAttachCompanies", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: asContact(yield* domain(attachContactCompanies(yield* CurrentPrincipal, params.id, payload))), message: MODIFIED }
      }))
    .handle("contactDetachCompany", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: asContact(yield* domain(detachContactCompany(yield* CurrentPrincipal, params.id, payload))), message: MODIFIED }
      }))
    .handle("dealAttachCompanies", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: asDeal(yield* domain(attachDealCompanies(yield* CurrentPrincipal, params.id, payload))), message: MODIFIED }
      }))
    .handle("dealDetachCompany", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: asDeal(yield* domain(detachDealCompany(yield* CurrentPrincipal, params.id, payload))), message: MODIFIED }
      }))
    .handle("ticketAttachCompanies", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(attachTicketCompanies(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      }))
    .handle("ticketDetachCompany", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(detachTicketCompany(yield* CurrentPrincipal, params.id, payload)), message: MODIFIED }
      })))
