/**
 * The delivery log of a webhook: the paginated list (permission webhook-index), redelivery and
 * recovery of the failed deliveries of a window (permission webhook-update). A webhook or delivery of another account, or an id that is not
 * one, is 404.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { DeliveryResource } from "@wasl/core/Deliveries"
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

/** The body of `POST /api/account/webhooks/:id/recover`: `{ since, until? }`, read by the use-case. */
export const RecoverBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown)
  .annotate({
    description: "{ since: timestamp, until?: timestamp } — e.g. { \"since\": \"2026-11-20T00:00:00.000000Z\" }; until defaults to now"
  })

/** What a recovery answers in `data`: how many fresh deliveries it queued. */
export const RecoveryResult: Schema.Struct<{ readonly queued: Schema.Int }> = Schema.Struct({ queued: Schema.Int })
  .annotate({ identifier: "RecoveryResult" })

/** `POST /api/account/webhooks/:id/recover`: queues again the deliveries that ended failed in a window. */
export const RecoverEndpoint: WaslEndpoint<"recover", "POST", "/account/webhooks/:id/recover", {
  params: PathParams<{ id: Schema.String }>
  payload: typeof RecoverBody
  success: DataMessageAnswer<typeof RecoveryResult>
}> = HttpApiEndpoint.post("recover", "/account/webhooks/:id/recover", {
  params: { id: Schema.String },
  payload: RecoverBody,
  success: DataMessageAnswer(RecoveryResult).pipe(HttpApiSchema.status(202)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Recover a webhook's failed deliveries").annotate(
  OpenApi.Description,
  "Queues a new delivery (new id, attempts from 1, same event and body) of each delivery of the webhook that ended " +
    "failed between since and until (inclusive; timestamps in any accepted date form, until defaults to now) and was " +
    "not recovered before, and answers how many: a failed delivery is recovered once, so calling again queues none " +
    "of them twice. The window is at most 30 days, and one call queues at most 1,000 deliveries, the earliest ended " +
    "first: when queued is 1,000, call again for the rest. 422 when since is missing, a date is invalid, until is " +
    "before since, the window is longer than 30 days, or the webhook is not validated and active. Permission webhook-update."
)

const DeliveriesGroupBase: AuthenticatedGroup<
  "deliveries",
  typeof ListDeliveriesEndpoint | typeof RedeliverEndpoint | typeof RecoverEndpoint
> = HttpApiGroup.make("deliveries")
  .add(ListDeliveriesEndpoint)
  .add(RedeliverEndpoint)
  .add(RecoverEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "A webhook's delivery log: every delivery with its attempts, redelivery of one of them, and recovery of those that failed in a window."
  )

/**
 * A webhook's delivery log: the deliveries with their attempts, and redelivery. Needs the
 * permission webhook-index to list and webhook-update to redeliver.
 */
export class DeliveriesGroup extends DeliveriesGroupBase {}
