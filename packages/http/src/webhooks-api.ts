/** Webhook management (spec §2.10, §4.9, §7; decisions §6). Bodies are validated by core with Laravel's messages. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Webhook } from "@wasl/core"
import { Forbidden403, NotFound404, PaymentRequired402, Unauthenticated401, Validation422 } from "./errors.ts"
import { Authentication } from "./security.ts"

const Body = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "URL (https, at most 2,048 characters, a public host) and events (at least one of the 72 event names)"
})
const ActivateBody = Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "{ is_active: boolean }" })

/** Parsed by the use-cases: anything that is not a positive integer is 404. */
const idParams = { id: Schema.String }
const Deleted = Schema.Struct({ message: Schema.String, data: Schema.Tuple([]) })
const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(HttpApiEndpoint.get("list", "/account/webhooks", {
    success: Schema.Struct({ data: Schema.Array(Webhook) }),
    error: errors
  }).annotate(OpenApi.Description, "Every webhook of the current account, secrets included. Permission webhook-index."))
  .add(HttpApiEndpoint.post("create", "/account/webhooks", {
    payload: Body,
    success: Schema.Struct({ data: Webhook, message: Schema.String }).pipe(HttpApiSchema.status(201)),
    error: [...errors, PaymentRequired402]
  }).annotate(
    OpenApi.Description,
    "Creates an unvalidated, inactive webhook with a generated 32-character secret. Permission webhook-create; 402 when the plan allows no (more) webhooks."
  ))
  .add(HttpApiEndpoint.get("show", "/account/webhooks/:id", {
    params: idParams,
    success: Schema.Struct({ data: Webhook }),
    error: errors
  }))
  .add(HttpApiEndpoint.put("update", "/account/webhooks/:id", {
    params: idParams,
    payload: Body,
    success: Schema.Struct({ data: Webhook, message: Schema.String }),
    error: errors
  }).annotate(OpenApi.Description, "Replaces URL and events; a changed URL must be validated again."))
  .add(HttpApiEndpoint.delete("delete", "/account/webhooks/:id", {
    params: idParams,
    success: Deleted,
    error: errors
  }))
  .add(HttpApiEndpoint.post("validate", "/account/webhooks/:id/validate", {
    params: idParams,
    success: Schema.Struct({ data: Webhook }),
    error: errors
  }).annotate(
    OpenApi.Description,
    "POSTs the challenge of decisions §6 to the URL; the endpoint must answer within 10 s with { signature: \"sha256=\" + hex HMAC-SHA256(secret, challenge) }. 403 otherwise."
  ))
  .add(HttpApiEndpoint.put("activate", "/account/webhooks/:id/activate", {
    params: idParams,
    payload: ActivateBody,
    success: Schema.Struct({ data: Webhook, message: Schema.String }),
    error: errors
  }).annotate(OpenApi.Description, "{ is_active } switches deliveries on or off; 403 unless validated; true clears the failure count."))
  .middleware(Authentication)
  .prefix("/api")
{}
