/**
 * Links between records: a deal's contacts, a ticket's contacts, a ticket's deals, and a company's
 * contacts, deals and tickets, attached and detached from either side's path. Each call needs the update
 * permission of the record in its path, which must be the account's (404); the other side's ids
 * must be the account's too (422 on their key). Linking twice is idempotent.
 *
 * A link change fires, in the same transaction, the `-updated` event of each side whose REST shape
 * derives something from that link, once per record and only when a link was really added or
 * removed: a deal (its `contacts`) and a contact (its `deal_ids`) for deal–contact links, the ticket
 * (`contacts_count`, `deals_count`) for ticket links, both sides of a company link (the company's
 * ids and counts, the other's `company_ids`).
 */
import { Effect } from "effect"
import type { ObjectKind } from "../records/object-kind.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, NotFound, type ValidationFailed } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import { bodyHas, validateId, validateIdList } from "../records/link-input.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository, type RecordLinkName } from "../records/record-repository.ts"
import { type ContactRecordJson, flatContact, type RecordJson } from "../records/record-shape.ts"
import { Transactor } from "../transactor.ts"
import { authorize } from "./authenticate.ts"
import { LINK_SPECS } from "./link-derivation.ts"
import { appendRecordsUpdated, currentShapes, isRecordId } from "./record-lookup.ts"

/** Which side of the link the record in the path is. */
type PathSide = "from" | "to"

interface LinkChange {
  readonly link: RecordLinkName
  readonly side: PathSide
  readonly pathId: string
  readonly otherIds: ReadonlyArray<string>
  readonly action: "link" | "unlink"
}

/** Links or unlinks, then queues the `-updated` events of the records whose shape changed. */
const applyLinks = (accountId: number, change: LinkChange) =>
  Effect.gen(function*() {
    const spec = LINK_SPECS[change.link]
    const repo = yield* RecordRepository
    const changedOthers: Array<string> = []
    for (const otherId of change.otherIds) {
      const [from, to] = change.side === "from" ? [change.pathId, otherId] : [otherId, change.pathId]
      const input = { accountId, link: change.link, from, to }
      const changed = change.action === "link" ? yield* repo.link(input) : yield* repo.unlink(input)
      if (changed) changedOthers.push(otherId)
    }
    if (changedOthers.length === 0) return
    const [pathDerives, otherDerives] = change.side === "from"
      ? [spec.fromDerives, spec.toDerives]
      : [spec.toDerives, spec.fromDerives]
    const [pathKind, otherKind] = change.side === "from" ? [spec.from, spec.to] : [spec.to, spec.from]
    if (pathDerives) yield* appendRecordsUpdated(accountId, pathKind, [change.pathId])
    if (otherDerives) yield* appendRecordsUpdated(accountId, otherKind, changedOthers)
  })

/**
 * Runs a link call: permission, the path record (404), then `body` in one transaction. The path
 * record is held for the transaction (as `body` holds the ids it validates), so a DELETE racing the
 * call either went first (404) or waits for it, and the answer's shapes are read from records
 * still there.
 */
const linkCall = <A, E, R>(
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: (accountId: number) => Effect.Effect<A, E, R>
) =>
  Effect.gen(function*() {
    yield* authorize(principal, `${kind}-update`)
    const transactor = yield* Transactor
    return yield* transactor.transaction(Effect.gen(function*() {
      const held = yield* RecordRepository.use((repo) => repo.existing(principal.accountId, kind, isRecordId(id) ? [id] : []))
      if (held.length === 0) return yield* new NotFound()
      return yield* body(principal.accountId)
    }))
  })

/**
 * A link use-case: it takes the caller, the `_id` of the record in the path and the request body,
 * and runs in one transaction. It needs the update permission of the path record's kind (else
 * {@link Forbidden}); the path record must be the account's (else {@link NotFound}), and so must
 * the ids of the body (else {@link ValidationFailed} on their key).
 */
export type RecordLinkUseCase<A> = (
  principal: Principal,
  recordId: string,
  body: unknown
) => Effect.Effect<
  A,
  Forbidden | NotFound | ValidationFailed,
  Outbox | PropertyRepository | RecordRepository | Transactor
>

/** The record's REST shape now (inside the transaction, after the change). */
const currentShape = (accountId: number, kind: ObjectKind, id: string) =>
  Effect.map(currentShapes(accountId, kind, [id]), (shapes) => shapes[0]!)

/**
 * `POST /api/deals/{_id}/attach-contacts` `{ contact_ids }`: links the contacts to the deal
 * (linking twice changes nothing). Needs `deal-update`. Answers the deal with its linked contacts.
 * Fails {@link Forbidden} without the permission, {@link NotFound} for a deal the account does not
 * have, {@link ValidationFailed} on `contact_ids` (or one of its entries) for ids that are not the
 * account's contacts.
 */
export const attachDealContacts: RecordLinkUseCase<RecordJson> = Effect.fn("attachDealContacts")(function*(
  principal: Principal,
  dealId: string,
  body: unknown
) {
  return yield* linkCall(principal, "deal", dealId, (accountId) =>
    Effect.gen(function*() {
      const ids = yield* validateIdList(accountId, "contact", "contact_ids", body)
      yield* applyLinks(accountId, { link: "deal_contact", side: "from", pathId: dealId, otherIds: ids, action: "link" })
      return yield* currentShape(accountId, "deal", dealId)
    }))
})

/**
 * `POST /api/deals/{_id}/detach-contact` `{ contact_id }`: unlinks the contact from the deal.
 * Needs `deal-update`. Answers the deal with its remaining contacts as full contact records.
 * Fails {@link Forbidden}, {@link NotFound} (the deal) or {@link ValidationFailed} (`contact_id`).
 */
export const detachDealContact: RecordLinkUseCase<RecordJson> = Effect.fn("detachDealContact")(function*(
  principal: Principal,
  dealId: string,
  body: unknown
) {
  return yield* linkCall(principal, "deal", dealId, (accountId) =>
    Effect.gen(function*() {
      const id = yield* validateId(accountId, "contact", "contact_id", body)
      yield* applyLinks(accountId, { link: "deal_contact", side: "from", pathId: dealId, otherIds: [id], action: "unlink" })
      const deal = yield* currentShape(accountId, "deal", dealId)
      const summaries = (deal as { readonly contacts: ReadonlyArray<{ readonly _id: string }> }).contacts
      const shapes = yield* currentShapes(accountId, "contact", summaries.map((c) => c._id))
      const contacts = (shapes as ReadonlyArray<ContactRecordJson>).map(flatContact)
      return { ...deal, contacts } as RecordJson
    }))
})

/**
 * `POST /api/deals/{_id}/attach-tickets` `{ ticket_ids }`: links the tickets to the deal. Needs
 * `deal-update`. Answers the deal. Fails {@link Forbidden}, {@link NotFound} (the deal) or
 * {@link ValidationFailed} (`ticket_ids`).
 */
export const attachDealTickets: RecordLinkUseCase<RecordJson> = Effect.fn("attachDealTickets")(function*(
  principal: Principal,
  dealId: string,
  body: unknown
) {
  return yield* linkCall(principal, "deal", dealId, (accountId) =>
    Effect.gen(function*() {
      const ids = yield* validateIdList(accountId, "ticket", "ticket_ids", body)
      yield* applyLinks(accountId, { link: "ticket_deal", side: "to", pathId: dealId, otherIds: ids, action: "link" })
      return yield* currentShape(accountId, "deal", dealId)
    }))
})

/**
 * `POST /api/deals/{_id}/detach-ticket` `{ ticket_id }`: unlinks the ticket from the deal. Needs
 * `deal-update`. Answers the deal. Fails {@link Forbidden}, {@link NotFound} (the deal) or
 * {@link ValidationFailed} (`ticket_id`).
 */
export const detachDealTicket: RecordLinkUseCase<RecordJson> = Effect.fn("detachDealTicket")(function*(
  principal: Principal,
  dealId: string,
  body: unknown
) {
  return yield* linkCall(principal, "deal", dealId, (accountId) =>
    Effect.gen(function*() {
      const id = yield* validateId(accountId, "ticket", "ticket_id", body)
      yield* applyLinks(accountId, { link: "ticket_deal", side: "to", pathId: dealId, otherIds: [id], action: "unlink" })
      return yield* currentShape(accountId, "deal", dealId)
    }))
})

/**
 * `POST /api/tickets/{_id}/attach-contacts` `{ contact_ids }`: links the contacts to the ticket.
 * Needs `ticket-update`. Answers the attached contacts. Fails {@link Forbidden},
 * {@link NotFound} (the ticket) or {@link ValidationFailed} (`contact_ids`).
 */
export const attachTicketContacts: RecordLinkUseCase<Array<RecordJson>> = Effect.fn("attachTicketContacts")(function*(
  principal: Principal,
  ticketId: string,
  body: unknown
) {
  return yield* linkCall(principal, "ticket", ticketId, (accountId) =>
    Effect.gen(function*() {
      const ids = yield* validateIdList(accountId, "contact", "contact_ids", body)
      yield* applyLinks(accountId, { link: "ticket_contact", side: "from", pathId: ticketId, otherIds: ids, action: "link" })
      return yield* currentShapes(accountId, "contact", ids)
    }))
})

/**
 * `POST /api/tickets/{_id}/attach-deals` `{ deal_ids }`: links the deals to the ticket. Needs
 * `ticket-update`. Answers the attached deals. Fails {@link Forbidden}, {@link NotFound} (the
 * ticket) or {@link ValidationFailed} (`deal_ids`).
 */
export const attachTicketDeals: RecordLinkUseCase<Array<RecordJson>> = Effect.fn("attachTicketDeals")(function*(
  principal: Principal,
  ticketId: string,
  body: unknown
) {
  return yield* linkCall(principal, "ticket", ticketId, (accountId) =>
    Effect.gen(function*() {
      const ids = yield* validateIdList(accountId, "deal", "deal_ids", body)
      yield* applyLinks(accountId, { link: "ticket_deal", side: "from", pathId: ticketId, otherIds: ids, action: "link" })
      return yield* currentShapes(accountId, "deal", ids)
    }))
})

/**
 * `POST /api/tickets/{_id}/detach-deal` `{ deal_id }`: unlinks the deal from the ticket. Needs
 * `ticket-update`. Answers the ticket (with its `deals_count`). Fails {@link Forbidden},
 * {@link NotFound} (the ticket) or {@link ValidationFailed} (`deal_id`).
 */
export const detachTicketDeal: RecordLinkUseCase<RecordJson> = Effect.fn("detachTicketDeal")(function*(
  principal: Principal,
  ticketId: string,
  body: unknown
) {
  return yield* linkCall(principal, "ticket", ticketId, (accountId) =>
    Effect.gen(function*() {
      const id = yield* validateId(accountId, "deal", "deal_id", body)
      yield* applyLinks(accountId, { link: "ticket_deal", side: "from", pathId: ticketId, otherIds: [id], action: "unlink" })
      return yield* currentShape(accountId, "ticket", ticketId)
    }))
})

/**
 * `POST /api/tickets/{_id}/detach-contact`: `{ contact_id }` unlinks a contact from the ticket; a
 * body with `deal_id` and no `contact_id` unlinks a deal instead (both on the same path). Needs
 * `ticket-update`. Answers the ticket. Fails {@link Forbidden}, {@link NotFound} (the ticket) or
 * {@link ValidationFailed} (`contact_id`, or `deal_id`).
 */
export const detachTicketContact: RecordLinkUseCase<RecordJson> = Effect.fn("detachTicketContact")(function*(
  principal: Principal,
  ticketId: string,
  body: unknown
) {
  if (!bodyHas(body, "contact_id") && bodyHas(body, "deal_id")) return yield* detachTicketDeal(principal, ticketId, body)
  return yield* linkCall(principal, "ticket", ticketId, (accountId) =>
    Effect.gen(function*() {
      const id = yield* validateId(accountId, "contact", "contact_id", body)
      yield* applyLinks(accountId, { link: "ticket_contact", side: "from", pathId: ticketId, otherIds: [id], action: "unlink" })
      return yield* currentShape(accountId, "ticket", ticketId)
    }))
})

// ---------------------------------------------------------------------------------------------
// Companies and their contacts, deals and tickets
// ---------------------------------------------------------------------------------------------

/** A kind a company links to, its link, and the body keys naming records of it. */
interface CompanyLinkKind {
  readonly link: "company_contact" | "company_deal" | "company_ticket"
  readonly kind: "contact" | "deal" | "ticket"
  readonly ids: string
  readonly id: string
}

const COMPANY_CONTACTS: CompanyLinkKind = { link: "company_contact", kind: "contact", ids: "contact_ids", id: "contact_id" }
const COMPANY_DEALS: CompanyLinkKind = { link: "company_deal", kind: "deal", ids: "deal_ids", id: "deal_id" }
const COMPANY_TICKETS: CompanyLinkKind = { link: "company_ticket", kind: "ticket", ids: "ticket_ids", id: "ticket_id" }

/**
 * A company link call from the company's path: `attach` takes `{ <kind>_ids }`, `detach`
 * `{ <kind>_id }`; it answers the company. Needs `company-update`.
 */
const fromCompany = (name: string, of: CompanyLinkKind, action: "link" | "unlink"): RecordLinkUseCase<RecordJson> =>
  Effect.fn(name)(function*(principal: Principal, companyId: string, body: unknown) {
    return yield* linkCall(principal, "company", companyId, (accountId) =>
      Effect.gen(function*() {
        const ids = action === "link"
          ? yield* validateIdList(accountId, of.kind, of.ids, body)
          : [yield* validateId(accountId, of.kind, of.id, body)]
        yield* applyLinks(accountId, { link: of.link, side: "from", pathId: companyId, otherIds: ids, action })
        return yield* currentShape(accountId, "company", companyId)
      }))
  })

/**
 * A company link call from the contact's, deal's or ticket's path: `attach` takes
 * `{ company_ids }`, `detach` `{ company_id }`; it answers the record. Needs the record's update
 * permission.
 */
const toCompany = (name: string, of: CompanyLinkKind, action: "link" | "unlink"): RecordLinkUseCase<RecordJson> =>
  Effect.fn(name)(function*(principal: Principal, recordId: string, body: unknown) {
    return yield* linkCall(principal, of.kind, recordId, (accountId) =>
      Effect.gen(function*() {
        const ids = action === "link"
          ? yield* validateIdList(accountId, "company", "company_ids", body)
          : [yield* validateId(accountId, "company", "company_id", body)]
        yield* applyLinks(accountId, { link: of.link, side: "to", pathId: recordId, otherIds: ids, action })
        return yield* currentShape(accountId, of.kind, recordId)
      }))
  })

/**
 * `POST /api/companies/{_id}/attach-contacts` `{ contact_ids }`: links the contacts to the
 * company. Needs `company-update`. Answers the company (its `contact_ids`, `contacts_count`).
 * Fails {@link Forbidden}, {@link NotFound} (the company) or {@link ValidationFailed} (`contact_ids`).
 */
export const attachCompanyContacts: RecordLinkUseCase<RecordJson> = fromCompany("attachCompanyContacts", COMPANY_CONTACTS, "link")
/** `POST /api/companies/{_id}/detach-contact` `{ contact_id }`: unlinks the contact; answers the company. */
export const detachCompanyContact: RecordLinkUseCase<RecordJson> = fromCompany("detachCompanyContact", COMPANY_CONTACTS, "unlink")
/** `POST /api/companies/{_id}/attach-deals` `{ deal_ids }`: links the deals; answers the company. */
export const attachCompanyDeals: RecordLinkUseCase<RecordJson> = fromCompany("attachCompanyDeals", COMPANY_DEALS, "link")
/** `POST /api/companies/{_id}/detach-deal` `{ deal_id }`: unlinks the deal; answers the company. */
export const detachCompanyDeal: RecordLinkUseCase<RecordJson> = fromCompany("detachCompanyDeal", COMPANY_DEALS, "unlink")
/** `POST /api/companies/{_id}/attach-tickets` `{ ticket_ids }`: links the tickets; answers the company. */
export const attachCompanyTickets: RecordLinkUseCase<RecordJson> = fromCompany("attachCompanyTickets", COMPANY_TICKETS, "link")
/** `POST /api/companies/{_id}/detach-ticket` `{ ticket_id }`: unlinks the ticket; answers the company. */
export const detachCompanyTicket: RecordLinkUseCase<RecordJson> = fromCompany("detachCompanyTicket", COMPANY_TICKETS, "unlink")

/**
 * `POST /api/contacts/{_id}/attach-companies` `{ company_ids }`: links the companies to the
 * contact. Needs `contact-update`. Answers the contact (its `company_ids`). Fails
 * {@link Forbidden}, {@link NotFound} (the contact) or {@link ValidationFailed} (`company_ids`).
 */
export const attachContactCompanies: RecordLinkUseCase<RecordJson> = toCompany("attachContactCompanies", COMPANY_CONTACTS, "link")
/** `POST /api/contacts/{_id}/detach-company` `{ company_id }`: unlinks the company; answers the contact. */
export const detachContactCompany: RecordLinkUseCase<RecordJson> = toCompany("detachContactCompany", COMPANY_CONTACTS, "unlink")
/** `POST /api/deals/{_id}/attach-companies` `{ company_ids }`: links the companies; answers the deal. Needs `deal-update`. */
export const attachDealCompanies: RecordLinkUseCase<RecordJson> = toCompany("attachDealCompanies", COMPANY_DEALS, "link")
/** `POST /api/deals/{_id}/detach-company` `{ company_id }`: unlinks the company; answers the deal. */
export const detachDealCompany: RecordLinkUseCase<RecordJson> = toCompany("detachDealCompany", COMPANY_DEALS, "unlink")
/** `POST /api/tickets/{_id}/attach-companies` `{ company_ids }`: links the companies; answers the ticket. Needs `ticket-update`. */
export const attachTicketCompanies: RecordLinkUseCase<RecordJson> = toCompany("attachTicketCompanies", COMPANY_TICKETS, "link")
/** `POST /api/tickets/{_id}/detach-company` `{ company_id }`: unlinks the company; answers the ticket. */
export const detachTicketCompany: RecordLinkUseCase<RecordJson> = toCompany("detachTicketCompany", COMPANY_TICKETS, "unlink")
