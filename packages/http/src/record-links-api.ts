/**
 * Links between deals, contacts, tickets and companies. Each call needs the update permission of the record
 * in its path (404 when it is not the account's); ids of records of another account are a 422 on
 * their key; linking twice is idempotent.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { CompanyJson, ContactJson, DealJson, TicketJson } from "@wasl/core/Records"
import { RecordId } from "@wasl/core/Wire"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { Authentication } from "./security.ts"

const body = (description: string) => Schema.Record(Schema.String, Schema.Unknown).annotate({ description })
const params = { id: RecordId }

/** The answer of the deal link calls: the deal, and the message. */
export const DealAnswer: DataMessageAnswer<typeof DealJson> = DataMessageAnswer(DealJson)
/** The answer of the ticket detach calls: the ticket (with its counts), and the message. */
export const TicketAnswer: DataMessageAnswer<typeof TicketJson> = DataMessageAnswer(TicketJson)
/** The answer of the company link calls: the company (its linked ids and counts), and the message. */
export const CompanyAnswer: DataMessageAnswer<typeof CompanyJson> = DataMessageAnswer(CompanyJson)
/** The answer of a contact's company link calls: the contact (its `company_ids`), and the message. */
export const ContactAnswer: DataMessageAnswer<typeof ContactJson> = DataMessageAnswer(ContactJson)
/** A deal as ticket attach-deals lists it. */
export const DealBrief: Schema.Struct<{
  readonly properties: Schema.Struct<{
    readonly _id: Schema.String
    readonly deal_stage: Schema.NullOr<Schema.String>
    readonly deal_name: Schema.NullOr<Schema.String>
    readonly amount: Schema.NullOr<Schema.Finite>
  }>
}> = Schema.Struct({
  properties: Schema.Struct({
    _id: Schema.String,
    deal_stage: Schema.NullOr(Schema.String),
    deal_name: Schema.NullOr(Schema.String),
    amount: Schema.NullOr(Schema.Finite)
  })
}).annotate({ identifier: "DealBrief" })

/**
 * A link endpoint: `POST` on a record's path (its id in `:id`), a JSON object body naming the
 * records to link or unlink, answering `Success`.
 */
export type RecordLinkEndpoint<Name extends string, Path extends string, Success extends Schema.Top> = WaslEndpoint<
  Name,
  "POST",
  Path,
  { params: PathParams<{ id: typeof RecordId }>; payload: Schema.$Record<Schema.String, Schema.Unknown>; success: Success }
>

const post = <const Name extends string, const Path extends `/${string}`, S extends Schema.Top>(
  name: Name,
  path: Path,
  payload: string,
  success: S
) => HttpApiEndpoint.post(name, path, { params, payload: body(payload), success, error: commonErrors })

/** `POST /api/deals/:id/attach-contacts` `{ contact_ids }`: links contacts to the deal. */
export const DealAttachContactsEndpoint: RecordLinkEndpoint<"dealAttachContacts", "/deals/:id/attach-contacts", typeof DealAnswer> =
  post("dealAttachContacts", "/deals/:id/attach-contacts", "{ contact_ids: string[] }", DealAnswer).annotate(OpenApi.Summary, "Link contacts to a deal").annotate(
    OpenApi.Description,
    "Links the contacts to the deal; the deal with its contacts listed. Permission deal-update."
  )

/** `POST /api/deals/:id/detach-contact` `{ contact_id }`: unlinks a contact from the deal. */
export const DealDetachContactEndpoint: RecordLinkEndpoint<"dealDetachContact", "/deals/:id/detach-contact", typeof DealAnswer> =
  post("dealDetachContact", "/deals/:id/detach-contact", "{ contact_id: string }", DealAnswer).annotate(OpenApi.Summary, "Unlink a contact from a deal").annotate(
    OpenApi.Description,
    "Unlinks the contact from the deal; the deal with its remaining contacts as full contact records, flat (_id, account_id, firstname, email, channels ... at the top level). Permission deal-update."
  )

/** `POST /api/deals/:id/attach-tickets` `{ ticket_ids }`: links tickets to the deal. */
export const DealAttachTicketsEndpoint: RecordLinkEndpoint<"dealAttachTickets", "/deals/:id/attach-tickets", typeof DealAnswer> =
  post("dealAttachTickets", "/deals/:id/attach-tickets", "{ ticket_ids: string[] }", DealAnswer).annotate(OpenApi.Summary, "Link tickets to a deal").annotate(
    OpenApi.Description,
    "Links the tickets to the deal; the deal. Permission deal-update."
  )

/** `POST /api/deals/:id/detach-ticket` `{ ticket_id }`: unlinks a ticket from the deal. */
export const DealDetachTicketEndpoint: RecordLinkEndpoint<"dealDetachTicket", "/deals/:id/detach-ticket", typeof DealAnswer> =
  post("dealDetachTicket", "/deals/:id/detach-ticket", "{ ticket_id: string }", DealAnswer).annotate(OpenApi.Summary, "Unlink a ticket from a deal").annotate(
    OpenApi.Description,
    "Unlinks the ticket from the deal; the deal. Permission deal-update."
  )

/** `POST /api/tickets/:id/attach-contacts` `{ contact_ids }`: links contacts to the ticket. */
export const TicketAttachContactsEndpoint: RecordLinkEndpoint<
  "ticketAttachContacts",
  "/tickets/:id/attach-contacts",
  DataAnswer<Schema.$Array<typeof ContactJson>>
> = post(
  "ticketAttachContacts",
  "/tickets/:id/attach-contacts",
  "{ contact_ids: string[] }",
  DataAnswer(Schema.Array(ContactJson))
).annotate(OpenApi.Summary, "Link contacts to a ticket").annotate(
  OpenApi.Description,
  "Links the contacts to the ticket; the attached contacts, each with its embedded account. Permission ticket-update."
)

/** `POST /api/tickets/:id/detach-contact` `{ contact_id }` (or `{ deal_id }`): unlinks a contact (or a deal) from the ticket. */
export const TicketDetachContactEndpoint: RecordLinkEndpoint<"ticketDetachContact", "/tickets/:id/detach-contact", typeof TicketAnswer> =
  post("ticketDetachContact", "/tickets/:id/detach-contact", "{ contact_id: string } or { deal_id: string }", TicketAnswer)
    .annotate(OpenApi.Summary, "Unlink a contact (or a deal) from a ticket").annotate(
      OpenApi.Description,
      "Detaches a contact; with deal_id (and no contact_id) a deal, as detach-deal does. The ticket with its counts. Permission ticket-update."
    )

/** `POST /api/tickets/:id/attach-deals` `{ deal_ids }`: links deals to the ticket. */
export const TicketAttachDealsEndpoint: RecordLinkEndpoint<
  "ticketAttachDeals",
  "/tickets/:id/attach-deals",
  DataAnswer<Schema.$Array<typeof DealBrief>>
> = post("ticketAttachDeals", "/tickets/:id/attach-deals", "{ deal_ids: string[] }", DataAnswer(Schema.Array(DealBrief))).annotate(OpenApi.Summary, "Link deals to a ticket").annotate(
  OpenApi.Description,
  "Links the deals to the ticket; the attached deals, each as { properties: { _id, deal_stage, deal_name, amount } }. Permission ticket-update."
)

/** `POST /api/tickets/:id/detach-deal` `{ deal_id }`: unlinks a deal from the ticket. */
export const TicketDetachDealEndpoint: RecordLinkEndpoint<"ticketDetachDeal", "/tickets/:id/detach-deal", typeof TicketAnswer> =
  post("ticketDetachDeal", "/tickets/:id/detach-deal", "{ deal_id: string }", TicketAnswer).annotate(OpenApi.Summary, "Unlink a deal from a ticket").annotate(
    OpenApi.Description,
    "Unlinks the deal from the ticket; the ticket with its counts. Permission ticket-update."
  )

/** `POST /api/companies/{{_id}}/attach-contacts` `{ contact_ids: string[] }`: link contacts to a company. */
export const CompanyAttachContactsEndpoint: RecordLinkEndpoint<"companyAttachContacts", "/companies/:id/attach-contacts", typeof CompanyAnswer> =
  post("companyAttachContacts", "/companies/:id/attach-contacts", "{ contact_ids: string[] }", CompanyAnswer).annotate(OpenApi.Summary, "Link contacts to a company").annotate(
    OpenApi.Description,
    "Links the contacts to the company; the company with its contact_ids and contacts_count. Permission company-update."
  )

/** `POST /api/companies/{{_id}}/detach-contact` `{ contact_id: string }`: unlink a contact from a company. */
export const CompanyDetachContactEndpoint: RecordLinkEndpoint<"companyDetachContact", "/companies/:id/detach-contact", typeof CompanyAnswer> =
  post("companyDetachContact", "/companies/:id/detach-contact", "{ contact_id: string }", CompanyAnswer).annotate(OpenApi.Summary, "Unlink a contact from a company").annotate(
    OpenApi.Description,
    "Unlinks the contact from the company; the company. Permission company-update."
  )

/** `POST /api/companies/{{_id}}/attach-deals` `{ deal_ids: string[] }`: link deals to a company. */
export const CompanyAttachDealsEndpoint: RecordLinkEndpoint<"companyAttachDeals", "/companies/:id/attach-deals", typeof CompanyAnswer> =
  post("companyAttachDeals", "/companies/:id/attach-deals", "{ deal_ids: string[] }", CompanyAnswer).annotate(OpenApi.Summary, "Link deals to a company").annotate(
    OpenApi.Description,
    "Links the deals to the company; the company with its deal_ids and deals_count. Permission company-update."
  )

/** `POST /api/companies/{{_id}}/detach-deal` `{ deal_id: string }`: unlink a deal from a company. */
export const CompanyDetachDealEndpoint: RecordLinkEndpoint<"companyDetachDeal", "/companies/:id/detach-deal", typeof CompanyAnswer> =
  post("companyDetachDeal", "/companies/:id/detach-deal", "{ deal_id: string }", CompanyAnswer).annotate(OpenApi.Summary, "Unlink a deal from a company").annotate(
    OpenApi.Description,
    "Unlinks the deal from the company; the company. Permission company-update."
  )

/** `POST /api/companies/{{_id}}/attach-tickets` `{ ticket_ids: string[] }`: link tickets to a company. */
export const CompanyAttachTicketsEndpoint: RecordLinkEndpoint<"companyAttachTickets", "/companies/:id/attach-tickets", typeof CompanyAnswer> =
  post("companyAttachTickets", "/companies/:id/attach-tickets", "{ ticket_ids: string[] }", CompanyAnswer).annotate(OpenApi.Summary, "Link tickets to a company").annotate(
    OpenApi.Description,
    "Links the tickets to the company; the company with its ticket_ids and tickets_count. Permission company-update."
  )

/** `POST /api/companies/{{_id}}/detach-ticket` `{ ticket_id: string }`: unlink a ticket from a company. */
export const CompanyDetachTicketEndpoint: RecordLinkEndpoint<"companyDetachTicket", "/companies/:id/detach-ticket", typeof CompanyAnswer> =
  post("companyDetachTicket", "/companies/:id/detach-ticket", "{ ticket_id: string }", CompanyAnswer).annotate(OpenApi.Summary, "Unlink a ticket from a company").annotate(
    OpenApi.Description,
    "Unlinks the ticket from the company; the company. Permission company-update."
  )

/** `POST /api/contacts/{{_id}}/attach-companies` `{ company_ids: string[] }`: link companies to a contact. */
export const ContactAttachCompaniesEndpoint: RecordLinkEndpoint<"contactAttachCompanies", "/contacts/:id/attach-companies", typeof ContactAnswer> =
  post("contactAttachCompanies", "/contacts/:id/attach-companies", "{ company_ids: string[] }", ContactAnswer).annotate(OpenApi.Summary, "Link companies to a contact").annotate(
    OpenApi.Description,
    "Links the companies to the contact; the contact with its company_ids. Permission contact-update."
  )

/** `POST /api/contacts/{{_id}}/detach-company` `{ company_id: string }`: unlink a company from a contact. */
export const ContactDetachCompanyEndpoint: RecordLinkEndpoint<"contactDetachCompany", "/contacts/:id/detach-company", typeof ContactAnswer> =
  post("contactDetachCompany", "/contacts/:id/detach-company", "{ company_id: string }", ContactAnswer).annotate(OpenApi.Summary, "Unlink a company from a contact").annotate(
    OpenApi.Description,
    "Unlinks the company from the contact; the contact. Permission contact-update."
  )

/** `POST /api/deals/{{_id}}/attach-companies` `{ company_ids: string[] }`: link companies to a deal. */
export const DealAttachCompaniesEndpoint: RecordLinkEndpoint<"dealAttachCompanies", "/deals/:id/attach-companies", typeof DealAnswer> =
  post("dealAttachCompanies", "/deals/:id/attach-companies", "{ company_ids: string[] }", DealAnswer).annotate(OpenApi.Summary, "Link companies to a deal").annotate(
    OpenApi.Description,
    "Links the companies to the deal; the deal with its company_ids. Permission deal-update."
  )

/** `POST /api/deals/{{_id}}/detach-company` `{ company_id: string }`: unlink a company from a deal. */
export const DealDetachCompanyEndpoint: RecordLinkEndpoint<"dealDetachCompany", "/deals/:id/detach-company", typeof DealAnswer> =
  post("dealDetachCompany", "/deals/:id/detach-company", "{ company_id: string }", DealAnswer).annotate(OpenApi.Summary, "Unlink a company from a deal").annotate(
    OpenApi.Description,
    "Unlinks the company from the deal; the deal. Permission deal-update."
  )

/** `POST /api/tickets/{{_id}}/attach-companies` `{ company_ids: string[] }`: link companies to a ticket. */
export const TicketAttachCompaniesEndpoint: RecordLinkEndpoint<"ticketAttachCompanies", "/tickets/:id/attach-companies", typeof TicketAnswer> =
  post("ticketAttachCompanies", "/tickets/:id/attach-companies", "{ company_ids: string[] }", TicketAnswer).annotate(OpenApi.Summary, "Link companies to a ticket").annotate(
    OpenApi.Description,
    "Links the companies to the ticket; the ticket with its company_ids. Permission ticket-update."
  )

/** `POST /api/tickets/{{_id}}/detach-company` `{ company_id: string }`: unlink a company from a ticket. */
export const TicketDetachCompanyEndpoint: RecordLinkEndpoint<"ticketDetachCompany", "/tickets/:id/detach-company", typeof TicketAnswer> =
  post("ticketDetachCompany", "/tickets/:id/detach-company", "{ company_id: string }", TicketAnswer).annotate(OpenApi.Summary, "Unlink a company from a ticket").annotate(
    OpenApi.Description,
    "Unlinks the company from the ticket; the ticket. Permission ticket-update."
  )

const RecordLinksGroupBase: AuthenticatedGroup<
  "recordLinks",
  | typeof DealAttachContactsEndpoint
  | typeof DealDetachContactEndpoint
  | typeof DealAttachTicketsEndpoint
  | typeof DealDetachTicketEndpoint
  | typeof TicketAttachContactsEndpoint
  | typeof TicketDetachContactEndpoint
  | typeof TicketAttachDealsEndpoint
  | typeof TicketDetachDealEndpoint
  | typeof CompanyAttachContactsEndpoint
  | typeof CompanyDetachContactEndpoint
  | typeof CompanyAttachDealsEndpoint
  | typeof CompanyDetachDealEndpoint
  | typeof CompanyAttachTicketsEndpoint
  | typeof CompanyDetachTicketEndpoint
  | typeof ContactAttachCompaniesEndpoint
  | typeof ContactDetachCompanyEndpoint
  | typeof DealAttachCompaniesEndpoint
  | typeof DealDetachCompanyEndpoint
  | typeof TicketAttachCompaniesEndpoint
  | typeof TicketDetachCompanyEndpoint
> = HttpApiGroup.make("recordLinks")
  .add(DealAttachContactsEndpoint)
  .add(DealDetachContactEndpoint)
  .add(DealAttachTicketsEndpoint)
  .add(DealDetachTicketEndpoint)
  .add(TicketAttachContactsEndpoint)
  .add(TicketDetachContactEndpoint)
  .add(TicketAttachDealsEndpoint)
  .add(TicketDetachDealEndpoint)
  .add(CompanyAttachContactsEndpoint)
  .add(CompanyDetachContactEndpoint)
  .add(CompanyAttachDealsEndpoint)
  .add(CompanyDetachDealEndpoint)
  .add(CompanyAttachTicketsEndpoint)
  .add(CompanyDetachTicketEndpoint)
  .add(ContactAttachCompaniesEndpoint)
  .add(ContactDetachCompanyEndpoint)
  .add(DealAttachCompaniesEndpoint)
  .add(DealDetachCompanyEndpoint)
  .add(TicketAttachCompaniesEndpoint)
  .add(TicketDetachCompanyEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Links between deals and contacts, deals and tickets, tickets and contacts, and companies and their contacts, deals and tickets: attach and detach from either side. Linking twice changes nothing."
  )

/**
 * The links between deals and contacts, deals and tickets, tickets and contacts, and companies and
 * their contacts, deals and tickets: attach and detach from either side's path. Each call needs the update permission of the record in its path;
 * linking twice changes nothing.
 */
export class RecordLinksGroup extends RecordLinksGroupBase {}
