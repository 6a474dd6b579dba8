/**
 * The delivery log of a webhook: the paginated list (permission webhook-index) and redelivery
 * (permission webhook-update). A webhook or delivery of another account, or an id that is not
 * one, is 404.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { DeliveryResource } from "@wasl/core"
import { type AuthenticatedGroup, commonErrors, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

/** `GET /api/account/webhooks/:id/deliveries`: the webhook's deliveries, newest first, paginated. */
export const ListDeliveriesEndpoint: WaslEndpoint<"list", "GET", "/account/webhooks/:id/deliveries", {
  params: PathParams<{ id: Schema.String }>; success: Pagination<typeof DeliveryResource>
}> = HttpApiEndpoint.get("list", "/account/webhooks/:id/deliveries", {
  params: { id: Schema.String },
  success: Pagination(DeliveryResource),
  error: commonErrors
}).annotate(OpenApi.Summary, "List a webhook's deliveries").annotate(
  OpenApi.Description,
  "The webhook's deliveries, newest first, one page at a time, each with its attempts (status code, duration, error, " +
    "start of the answer). Permission webhook-index."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `POST /api/account/webhooks/:id/deliveries/:delivery_id/redeliver`: queues the delivery's event again. */
export const RedeliverEndpoint: WaslEndpoint<"redeliver", "POST", "/account/webhooks/:id/deliveries/:delivery_id/redeliver", {
  params: PathParams<{ id: Schema.String; delivery_id: Schema.String }>; success: DataMessageAnswer<typeof DeliveryResource>
}> = HttpApiEndpoint.post("redeliver", "/account/webhooks/:id/deliveries/:delivery_id/redeliver", {
  params: { id: Schema.String, delivery_id: Schema.String },
  success: DataMessageAnswer(DeliveryResource).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Redeliver a webhook delivery").annotate(
  OpenApi.Description,
  "Queues a new delivery (new id, attempts from 1) of the same event and body. It is sent while the webhook is validated and active."
)

/** @ignore */
export const DeliveriesGroupBase: AuthenticatedGroup<
  "deliveries",
  typeof ListDeliveriesEndpoint | typeof RedeliverEndpoint
> = HttpApiGroup.make("deliveries")
  .add(ListDeliveriesEndpoint)
  .add(RedeliverEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "A webhook's delivery log: every delivery with its attempts, and redelivery of one of them."
  )

/**
 * A webhook's delivery log: the deliveries with their attempts, and redelivery. Needs the
 * permission webhook-index to list and webhook-update to redeliver.
 */
export class DeliveriesGroup extends DeliveriesGroupBase {}
