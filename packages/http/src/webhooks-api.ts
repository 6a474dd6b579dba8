/** Webhook management. Bodies are validated by core with Laravel's messages. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Webhook } from "@wasl/core/Webhooks"
import { type CommonErrors, PaymentRequired402 } from "./errors.ts"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { DeletedAnswer } from "./deleted-answer.ts"
import { Authentication } from "./security.ts"

/**
 * The body of a webhook create or update: `URL` (https, at most 2,048 characters, a public host)
 * and `events` (at least one of the 72 event names). Validated by the use-case with Laravel's
 * messages.
 */
export const WebhookBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "URL (https, at most 2,048 characters, a public host) and events (at least one of the 72 event names)"
})
/** The body of `PUT /api/account/webhooks/:id/activate`: `{ is_active: boolean }`. */
export const WebhookActivateBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown)
  .annotate({ description: "{ is_active: boolean }" })

/** Parsed by the use-cases: anything that is not a positive integer is 404. */
const idParams = { id: Schema.String }

/** `GET /api/account/webhooks`: every webhook of the current account. */
export const ListWebhooksEndpoint: WaslEndpoint<"list", "GET", "/account/webhooks", {
  success: DataAnswer<Schema.$Array<typeof Webhook>>
}> = HttpApiEndpoint.get("list", "/account/webhooks", {
  success: DataAnswer(Schema.Array(Webhook)),
  error: commonErrors
}).annotate(OpenApi.Summary, "List webhooks").annotate(
  OpenApi.Description,
  "Every webhook of the current account, secrets included. Permission webhook-index."
)

/** `POST /api/account/webhooks`: registers a webhook, unvalidated and inactive. */
export const CreateWebhookEndpoint: WaslEndpoint<"create", "POST", "/account/webhooks", {
  payload: typeof WebhookBody; success: DataMessageAnswer<typeof Webhook>; error: CommonErrors | typeof PaymentRequired402
}> = HttpApiEndpoint.post("create", "/account/webhooks", {
  payload: WebhookBody,
  success: DataMessageAnswer(Webhook).pipe(HttpApiSchema.status(201)),
  error: [...commonErrors, PaymentRequired402]
}).annotate(OpenApi.Summary, "Create a webhook").annotate(
  OpenApi.Description,
  "Creates an unvalidated, inactive webhook with a generated 32-character secret. Permission webhook-create; 402 when the plan allows no (more) webhooks. " +
    "Each delivery is a POST signed with the secret, with the headers X-Wasl-Event, X-Wasl-Delivery (its id), X-Wasl-Timestamp (Unix seconds), " +
    "X-Wasl-Signature (\"sha256=\" + hex HMAC-SHA256 of \"<timestamp>:<raw body>\"), and the Standard Webhooks ones: webhook-id (the delivery id), " +
    "webhook-timestamp and webhook-signature (\"v1,\" + base64 HMAC-SHA256 of \"<id>.<timestamp>.<raw body>\"), both keyed with the secret's UTF-8 bytes; " +
    "a Standard Webhooks verifier takes the secret as \"whsec_\" + base64 of those bytes."
)

/** `GET /api/account/webhooks/:id`: one webhook of the current account. */
export const ShowWebhookEndpoint: WaslEndpoint<"show", "GET", "/account/webhooks/:id", {
  params: PathParams<{ id: Schema.String }>; success: DataAnswer<typeof Webhook>
}> = HttpApiEndpoint.get("show", "/account/webhooks/:id", {
  params: idParams,
  success: DataAnswer(Webhook),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a webhook").annotate(
  OpenApi.Description,
  "One webhook of the current account, its secret included. Permission webhook-index."
)

/** `PUT /api/account/webhooks/:id`: replaces a webhook's URL and events. */
export const UpdateWebhookEndpoint: WaslEndpoint<"update", "PUT", "/account/webhooks/:id", {
  params: PathParams<{ id: Schema.String }>; payload: typeof WebhookBody; success: DataMessageAnswer<typeof Webhook>
}> = HttpApiEndpoint.put("update", "/account/webhooks/:id", {
  params: idParams,
  payload: WebhookBody,
  success: DataMessageAnswer(Webhook),
  error: commonErrors
}).annotate(OpenApi.Summary, "Update a webhook").annotate(
  OpenApi.Description,
  "Replaces URL and events; a changed URL must be validated again. Permission webhook-update."
)

/** `DELETE /api/account/webhooks/:id`: deletes a webhook and its deliveries. */
export const DeleteWebhookEndpoint: WaslEndpoint<"delete", "DELETE", "/account/webhooks/:id", {
  params: PathParams<{ id: Schema.String }>; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("delete", "/account/webhooks/:id", {
  params: idParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a webhook").annotate(
  OpenApi.Description,
  "Deletes the webhook, its subscriptions and its deliveries. Permission webhook-delete."
)

/** `POST /api/account/webhooks/:id/validate`: challenges the webhook's URL; validated when it answers right. */
export const ValidateWebhookEndpoint: WaslEndpoint<"validate", "POST", "/account/webhooks/:id/validate", {
  params: PathParams<{ id: Schema.String }>; success: DataAnswer<typeof Webhook>
}> = HttpApiEndpoint.post("validate", "/account/webhooks/:id/validate", {
  params: idParams,
  success: DataAnswer(Webhook),
  error: commonErrors
}).annotate(OpenApi.Summary, "Validate a webhook's URL").annotate(
  OpenApi.Description,
  "POSTs a challenge to the URL, with the headers of a delivery (X-Wasl-* and webhook-*), event webhook-validation, body { time, event, challenge }, the challenge 64 hex characters; " +
    "the endpoint must answer 2xx within 10 s with { signature: \"sha256=\" + hex HMAC-SHA256(secret, challenge) }. 403 otherwise. Permission webhook-update."
)

/** `PUT /api/account/webhooks/:id/activate`: switches a validated webhook's deliveries on or off. */
export const ActivateWebhookEndpoint: WaslEndpoint<"activate", "PUT", "/account/webhooks/:id/activate", {
  params: PathParams<{ id: Schema.String }>; payload: typeof WebhookActivateBody; success: DataMessageAnswer<typeof Webhook>
}> = HttpApiEndpoint.put("activate", "/account/webhooks/:id/activate", {
  params: idParams,
  payload: WebhookActivateBody,
  success: DataMessageAnswer(Webhook),
  error: commonErrors
}).annotate(OpenApi.Summary, "Activate or deactivate a webhook").annotate(
  OpenApi.Description,
  "{ is_active } switches deliveries on or off; 403 unless validated; true clears the failure count. Permission webhook-update."
)

const WebhooksGroupBase: AuthenticatedGroup<
  "webhooks",
  | typeof ListWebhooksEndpoint
  | typeof CreateWebhookEndpoint
  | typeof ShowWebhookEndpoint
  | typeof UpdateWebhookEndpoint
  | typeof DeleteWebhookEndpoint
  | typeof ValidateWebhookEndpoint
  | typeof ActivateWebhookEndpoint
> = HttpApiGroup.make("webhooks")
  .add(ListWebhooksEndpoint)
  .add(CreateWebhookEndpoint)
  .add(ShowWebhookEndpoint)
  .add(UpdateWebhookEndpoint)
  .add(DeleteWebhookEndpoint)
  .add(ValidateWebhookEndpoint)
  .add(ActivateWebhookEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The account's webhooks: register a URL for some of the events, prove you own it (a signed challenge), switch deliveries on or off. Each delivery is a signed POST."
  )

/**
 * The account's webhooks (`/api/account/webhooks`): register, change, validate (a signed
 * challenge the URL must answer), activate and delete. A webhook starts unvalidated and inactive;
 * only a validated, active one receives deliveries. Needs webhook-index, webhook-create,
 * webhook-update or webhook-delete, as each endpoint says.
 */
export class WebhooksGroup extends WebhooksGroupBase {}
