/**
 * The delivery log of a webhook (decisions §6): the paginated list (permission webhook-index) and
 * redelivery (permission webhook-update). A webhook or delivery of another account, or an id that
 * is not one, is 404.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { DeliveryResource } from "@wasl/core"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

export class DeliveriesGroup extends HttpApiGroup.make("deliveries")
  .add(HttpApiEndpoint.get("list", "/account/webhooks/:id/deliveries", {
    params: { id: Schema.String },
    success: Pagination(DeliveryResource),
    error: errors
  }).annotate(
    OpenApi.Description,
    "The webhook's deliveries, newest first (page, per_page), each with its attempts (status code, duration, error, start of the answer)."
  ))
  .add(HttpApiEndpoint.post("redeliver", "/account/webhooks/:id/deliveries/:delivery_id/redeliver", {
    params: { id: Schema.String, delivery_id: Schema.String },
    success: Schema.Struct({ data: DeliveryResource, message: Schema.String }).pipe(HttpApiSchema.status(201)),
    error: errors
  }).annotate(
    OpenApi.Description,
    "Queues a new delivery (new id, attempts from 1) of the same event and body. It is sent while the webhook is validated and active."
  ))
  .middleware(Authentication)
  .prefix("/api")
{}
