/** Campaigns: a broadcast sent to many contacts at the sending number's pace. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { CampaignJson, CampaignRecipientJson } from "@wasl/core/Messaging"
import { type AuthenticatedGroup, commonErrors, DataAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import { IntegerIdParam } from "./messaging-api.ts"
import { Authentication } from "./security.ts"

/**
 * The body of `POST /api/broadcasts/:id/campaigns`: `name`, `audience`, `parameters?` and
 * `scheduled_at?`. Validated by the use-case with Laravel's messages.
 */
export const CampaignBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description:
    "name, audience ({ contact_ids: [id, ...] } with at most 10,000 ids, or { search?, complex_filters? }: the contacts list query of GET /api/contacts, resolved when the campaign starts), parameters? { body: [...], header: [...] } (one value per variable, {{1}} first: a text, or { property: <contact property internal_name> } taken from each recipient), scheduled_at? (a date; default now)"
})

/** `POST /api/broadcasts/:id/campaigns`: asks for the broadcast to be sent to an audience. */
export const CreateCampaignEndpoint: WaslEndpoint<"createCampaign", "POST", "/broadcasts/:id/campaigns", {
  params: PathParams<{ id: typeof IntegerIdParam }>; payload: typeof CampaignBody; success: DataAnswer<typeof CampaignJson>
}> = HttpApiEndpoint.post("createCampaign", "/broadcasts/:id/campaigns", {
  params: { id: IntegerIdParam },
  payload: CampaignBody,
  success: DataAnswer(CampaignJson).pipe(HttpApiSchema.status(202)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Start a campaign").annotate(
  OpenApi.Description,
  "Queues the broadcast's template for every contact of the audience, sent by the worker at the sending number's pace (WASL_WHATSAPP_SEND_RATE, default 80 messages a second). The campaign is scheduled until scheduled_at, else queued; when it starts the audience is resolved: contacts without a whatsapp_number or phone, with whatsapp_opted_out, or without a value for a variable's property are skipped and counted. Each recipient uses one message of the monthly allowance; once it is used up the campaign is paused (reason \"The monthly message allowance is used up.\") and goes on when allowance comes back. Its creator is notified when it completes (WhatsappBroadcastCompleted). 403 for an authentication template or a broadcast that is not APPROVED; 422 for a template with a media header or an offer code (template), or a bad body. Permission broadcast-send."
)

/** `GET /api/campaigns`: the account's campaigns. */
export const ListCampaignsEndpoint: WaslEndpoint<"listCampaigns", "GET", "/campaigns", {
  success: Pagination<typeof CampaignJson>
}> = HttpApiEndpoint.get("listCampaigns", "/campaigns", {
  success: Pagination(CampaignJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "List campaigns").annotate(
  OpenApi.Description,
  "The account's campaigns, newest first, one page at a time, each with its counts. Permission broadcast-index."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `GET /api/campaigns/:_id`: one campaign. */
export const ShowCampaignEndpoint: WaslEndpoint<"showCampaign", "GET", "/campaigns/:_id", {
  params: PathParams<{ _id: Schema.String }>; success: DataAnswer<typeof CampaignJson>
}> = HttpApiEndpoint.get("showCampaign", "/campaigns/:_id", {
  params: { _id: Schema.String },
  success: DataAnswer(CampaignJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a campaign").annotate(
  OpenApi.Description,
  "One campaign with its status, reason and counts (recipients, sent, delivered, read, failed, skipped), which follow its messages' statuses. Permission broadcast-index."
)

/** `GET /api/campaigns/:_id/recipients`: the campaign's recipients. */
export const ListCampaignRecipientsEndpoint: WaslEndpoint<"listCampaignRecipients", "GET", "/campaigns/:_id/recipients", {
  params: PathParams<{ _id: Schema.String }>; success: Pagination<typeof CampaignRecipientJson>
}> = HttpApiEndpoint.get("listCampaignRecipients", "/campaigns/:_id/recipients", {
  params: { _id: Schema.String },
  success: Pagination(CampaignRecipientJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "List a campaign's recipients").annotate(
  OpenApi.Description,
  "The campaign's recipients in audience order, one page at a time: the contact, its message once sent, and its status (pending, sending, skipped or failed with the reason; once sent, its message's status). Empty until the campaign starts. Permission broadcast-index."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `POST /api/campaigns/:_id/cancel`: stops a campaign. */
export const CancelCampaignEndpoint: WaslEndpoint<"cancelCampaign", "POST", "/campaigns/:_id/cancel", {
  params: PathParams<{ _id: Schema.String }>; success: DataAnswer<typeof CampaignJson>
}> = HttpApiEndpoint.post("cancelCampaign", "/campaigns/:_id/cancel", {
  params: { _id: Schema.String },
  success: DataAnswer(CampaignJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "Cancel a campaign").annotate(
  OpenApi.Description,
  "Stops the campaign: recipients not yet sent never are (a send under way finishes). 422 on status when the campaign has already ended. Permission broadcast-send."
)

const CampaignsGroupBase: AuthenticatedGroup<
  "campaigns",
  | typeof CreateCampaignEndpoint
  | typeof ListCampaignsEndpoint
  | typeof ShowCampaignEndpoint
  | typeof ListCampaignRecipientsEndpoint
  | typeof CancelCampaignEndpoint
> = HttpApiGroup.make("campaigns")
  .add(CreateCampaignEndpoint)
  .add(ListCampaignsEndpoint)
  .add(ShowCampaignEndpoint)
  .add(ListCampaignRecipientsEndpoint)
  .add(CancelCampaignEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Campaigns: one broadcast sent to many contacts (named, or matched by the contacts list query) at the sending number's pace, with their recipients and counts."
  )

/**
 * Campaigns: asking for one (broadcast-send), reading them and their recipients
 * (broadcast-index), canceling one (broadcast-send).
 */
export class CampaignsGroup extends CampaignsGroupBase {}
