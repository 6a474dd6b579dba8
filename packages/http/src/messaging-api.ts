/** Sending numbers, broadcasts and template sends. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BroadcastJson, SentMessageJson, PlatformJson } from "@wasl/core/Messaging"
import { type CommonErrors, PaymentRequired402 } from "./errors.ts"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { ServiceUnavailable503WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

/** Integer ids of platforms and broadcasts; anything else is a 404 (the boundary maps Params errors). */
export const IntegerIdParam: Schema.FiniteFromString = Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0))

const Body = Schema.Record(Schema.String, Schema.Unknown)

/**
 * The body of `POST /api/platforms`: `name`, `display_phone_number`, `provider` (`sandbox` or
 * `whatsapp_cloud`), and for WhatsApp Cloud `phone_id`, `waba_id` and `access_token` (write-only:
 * never answered back). Validated by the use-case with Laravel's messages.
 */
export const PlatformBody: Schema.$Record<Schema.String, Schema.Unknown> = Body.annotate({
  description: "name, display_phone_number, provider (sandbox | whatsapp_cloud), phone_id?, waba_id?, access_token? (write-only)"
})

/**
 * The body of `POST /api/broadcasts`: `name`, `language`, `platform_id` and the `template`
 * (`name`, `category` UTILITY, MARKETING or AUTHENTICATION, `header?`, `body`, `footer?`,
 * `buttons?`, `code_expiration_minutes?`, `examples?`). Validated by the use-case with Laravel's
 * messages.
 */
export const BroadcastBody: Schema.$Record<Schema.String, Schema.Unknown> = Body.annotate({
  description:
    "name, language, platform_id, template { name, category (UTILITY | MARKETING | AUTHENTICATION), header?, body, footer?, buttons?, code_expiration_minutes?, examples? { body?: [text], header?: [text] } }. The body may use the variables {{1}}…{{n}} (numbered from 1, none missing) and a text header one, {{1}}; examples holds one sample text per variable for Meta's review."
})

/**
 * The body of `POST /api/broadcasts/:id/send`: `contact_id`, `components` for a template with
 * an offer code, `parameters` for a template with variables. Sent as multipart/form-data
 * (`contact_id`, `header[file]`, `components[0][...]`) when the template has a media header.
 */
export const SendTemplateBody: Schema.$Record<Schema.String, Schema.Unknown> = Body.annotate({
  description:
    "contact_id, components (offer code), parameters { body: [...], header: [...] } (one value per variable, {{1}} first: a text, or { property: <contact property internal_name> } taken from the contact). As multipart/form-data (contact_id, header[file], components[0][...]) when the template has a media header."
})

/** `GET /api/platforms`: the account's sending numbers. */
export const ListPlatformsEndpoint: WaslEndpoint<"listPlatforms", "GET", "/platforms", {
  success: DataAnswer<Schema.$Array<typeof PlatformJson>>
}> = HttpApiEndpoint.get("listPlatforms", "/platforms", {
  success: DataAnswer(Schema.Array(PlatformJson)),
  error: commonErrors
}).annotate(OpenApi.Summary, "List sending numbers").annotate(
  OpenApi.Description,
  "The account's sending numbers (never their access tokens). Permission broadcast-index."
)

/** `POST /api/platforms`: registers a sending number. */
export const CreatePlatformEndpoint: WaslEndpoint<"createPlatform", "POST", "/platforms", {
  payload: typeof PlatformBody; success: DataMessageAnswer<typeof PlatformJson>
}> = HttpApiEndpoint.post("createPlatform", "/platforms", {
  payload: PlatformBody,
  success: DataMessageAnswer(PlatformJson).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Register a sending number").annotate(
  OpenApi.Description,
  "Registers a sending number on a provider: sandbox (for development and tests) or whatsapp_cloud. Permission broadcast-manage."
)

/** `GET /api/broadcasts`: the account's broadcasts (registered templates). */
export const ListBroadcastsEndpoint: WaslEndpoint<"listBroadcasts", "GET", "/broadcasts", {
  success: DataAnswer<Schema.$Array<typeof BroadcastJson>>
}> = HttpApiEndpoint.get("listBroadcasts", "/broadcasts", {
  success: DataAnswer(Schema.Array(BroadcastJson)),
  error: commonErrors
}).annotate(OpenApi.Summary, "List broadcasts").annotate(
  OpenApi.Description,
  "The account's broadcasts, each one template with its status. Permission broadcast-index."
)

/** `POST /api/broadcasts`: registers a template as a broadcast. */
export const CreateBroadcastEndpoint: WaslEndpoint<"createBroadcast", "POST", "/broadcasts", {
  payload: typeof BroadcastBody; success: DataMessageAnswer<typeof BroadcastJson>
  error: CommonErrors | typeof ServiceUnavailable503WithRetryAfter
}> = HttpApiEndpoint.post("createBroadcast", "/broadcasts", {
  payload: BroadcastBody,
  success: DataMessageAnswer(BroadcastJson).pipe(HttpApiSchema.status(201)),
  error: [...commonErrors, ServiceUnavailable503WithRetryAfter]
}).annotate(OpenApi.Summary, "Register a broadcast template").annotate(
  OpenApi.Description,
  "Registers a template on one of the account's sending numbers. On a sandbox number it is APPROVED at once; on a whatsapp_cloud number it is submitted to Meta's review (POST /{waba_id}/message_templates) and stored with Meta's status (usually PENDING) and Meta's template id as template.external_id. Meta's refusal is a 422 on template with Meta's explanation, and nothing is stored; 503 when Meta cannot be reached. Permission broadcast-manage."
)

/** `POST /api/broadcasts/sync`: re-reads the review of the account's submitted templates from Meta. */
export const SyncBroadcastsEndpoint: WaslEndpoint<"syncBroadcasts", "POST", "/broadcasts/sync", {
  success: DataAnswer<Schema.$Array<typeof BroadcastJson>>
  error: CommonErrors | typeof ServiceUnavailable503WithRetryAfter
}> = HttpApiEndpoint.post("syncBroadcasts", "/broadcasts/sync", {
  success: DataAnswer(Schema.Array(BroadcastJson)),
  error: [...commonErrors, ServiceUnavailable503WithRetryAfter]
}).annotate(OpenApi.Summary, "Sync broadcast reviews from Meta").annotate(
  OpenApi.Description,
  "Reads the review of every submitted template of the account again from Meta (GET /{waba_id}/message_templates) and applies what changed (status, reason, category), notifying as Meta's webhook would; answers the account's broadcasts. The worker does the same every 15 minutes. 503 when Meta cannot be reached. Permission broadcast-manage."
)

/** `GET /api/broadcasts/:id`: one broadcast of the account. */
export const ShowBroadcastEndpoint: WaslEndpoint<"showBroadcast", "GET", "/broadcasts/:id", {
  params: PathParams<{ id: typeof IntegerIdParam }>; success: DataAnswer<typeof BroadcastJson>
}> = HttpApiEndpoint.get("showBroadcast", "/broadcasts/:id", {
  params: { id: IntegerIdParam },
  success: DataAnswer(BroadcastJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a broadcast").annotate(
  OpenApi.Description,
  "One broadcast of the account with its template and status. Permission broadcast-index."
)

/** `POST /api/broadcasts/:id/send`: sends the broadcast's template to a contact. */
export const SendBroadcastEndpoint: WaslEndpoint<"send", "POST", "/broadcasts/:id/send", {
  params: PathParams<{ id: typeof IntegerIdParam }>; payload: typeof SendTemplateBody; success: DataAnswer<typeof SentMessageJson>
  error: CommonErrors | typeof PaymentRequired402 | typeof ServiceUnavailable503WithRetryAfter
}> = HttpApiEndpoint.post("send", "/broadcasts/:id/send", {
  params: { id: IntegerIdParam },
  payload: SendTemplateBody,
  success: DataAnswer(SentMessageJson),
  error: [...commonErrors, PaymentRequired402, ServiceUnavailable503WithRetryAfter]
}).annotate(OpenApi.Summary, "Send a broadcast template to a contact").annotate(
  OpenApi.Description,
  "Sends the broadcast's (non-authentication) template to a contact; only an APPROVED broadcast is sent (403 otherwise). parameters fills the template's variables: a missing or extra value is a 422 on its key (parameters.body.0, ...); the stored message shows the filled text. header[file]: at most 10 MB of application/pdf, image/jpeg, image/jpg, image/png or video/mp4. Each send uses one message of the account's monthly allowance (account.message_allowance in GET /api/me); once it is used up the answer is 402 \"The monthly message allowance is used up.\" and nothing is sent. Permission broadcast-send."
)

const MessagingGroupBase: AuthenticatedGroup<
  "messaging",
  | typeof ListPlatformsEndpoint
  | typeof CreatePlatformEndpoint
  | typeof ListBroadcastsEndpoint
  | typeof CreateBroadcastEndpoint
  | typeof SyncBroadcastsEndpoint
  | typeof ShowBroadcastEndpoint
  | typeof SendBroadcastEndpoint
> = HttpApiGroup.make("messaging")
  .add(ListPlatformsEndpoint)
  .add(CreatePlatformEndpoint)
  .add(ListBroadcastsEndpoint)
  .add(CreateBroadcastEndpoint)
  .add(SyncBroadcastsEndpoint)
  .add(ShowBroadcastEndpoint)
  .add(SendBroadcastEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "WhatsApp messaging: the account's sending numbers (platforms), its broadcasts (one registered template each) and template sends to a contact."
  )

/**
 * WhatsApp messaging: the account's sending numbers (platforms), its broadcasts (one registered
 * template each) and template sends to a contact. Reading needs broadcast-index, registering
 * broadcast-manage, sending broadcast-send; one-time passwords are in `OtpGroup`.
 */
export class MessagingGroup extends MessagingGroupBase {}
