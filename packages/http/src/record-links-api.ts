/** Links between deals, contacts and tickets (spec 4.3, 4.4; decisions §5). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ContactJson, DealJson, RecordId, TicketJson } from "@wasl/core"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { Authentication } from "./security.ts"

const body = (description: string) => Schema.Record(Schema.String, Schema.Unknown).annotate({ description })
const params = { id: RecordId }
const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

const DealAnswer = Schema.Struct({ data: DealJson, message: Schema.String })
const TicketAnswer = Schema.Struct({ data: TicketJson, message: Schema.String })
/** A deal as ticket attach-deals lists it. */
const DealBrief = Schema.Struct({
  properties: Schema.Struct({
    _id: Schema.String,
    deal_stage: Schema.NullOr(Schema.String),
    deal_name: Schema.NullOr(Schema.String),
    amount: Schema.NullOr(Schema.Number)
  })
}).annotate({ identifier: "DealBrief" })

const post = <const Name extends string, const Path extends `/${string}`, S extends Schema.Top>(
  name: Name,
  path: Path,
  payload: string,
  success: S
) => HttpApiEndpoint.post(name, path, { params, payload: body(payload), success, error: errors })

export class RecordLinksGroup extends HttpApiGroup.make("recordLinks")
  .add(post("dealAttachContacts", "/deals/:id/attach-contacts", "{ contact_ids: string[] }", DealAnswer))
  .add(
    post("dealDetachContact", "/deals/:id/detach-contact", "{ contact_id: string }", DealAnswer).annotate(
      OpenApi.Description,
      "The deal with its remaining contacts as full contact records."
    )
  )
  .add(post("dealAttachTickets", "/deals/:id/attach-tickets", "{ ticket_ids: string[] }", DealAnswer))
  .add(post("dealDetachTicket", "/deals/:id/detach-ticket", "{ ticket_id: string }", DealAnswer))
  .add(
    post(
      "ticketAttachContacts",
      "/tickets/:id/attach-contacts",
      "{ contact_ids: string[] }",
      Schema.Struct({ data: Schema.Array(ContactJson) })
    ).annotate(OpenApi.Description, "The attached contacts, each with its embedded account.")
  )
  .add(
    post("ticketDetachContact", "/tickets/:id/detach-contact", "{ contact_id: string } or { deal_id: string }", TicketAnswer)
      .annotate(OpenApi.Description, "Detaches a contact; with deal_id (and no contact_id) a deal, as spec 4.4 lists.")
  )
  .add(
    post("ticketAttachDeals", "/tickets/:id/attach-deals", "{ deal_ids: string[] }", Schema.Struct({
      data: Schema.Array(DealBrief)
    }))
  )
  .add(post("ticketDetachDeal", "/tickets/:id/detach-deal", "{ deal_id: string }", TicketAnswer))
  .middleware(Authentication)
  .prefix("/api")
{}
