/** Sending numbers, broadcasts and template sends. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BroadcastJson, MessageJson, PlatformJson } from "@wasl/core"
import { type CommonErrors, Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { ServiceUnavailable503WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

/** Integer ids of platforms and broadcasts; anything else is a 404 (the boundary maps Params errors). */
export const IntegerIdParam: Schema.FiniteFromString = Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0))

const Body = Schema.Record(Schema.String, Schema.Unknown)
const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

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
 * `buttons?`, `code_expiration_minutes?`). Validated by the use-case with Laravel's messages.
 */
export const BroadcastBody: Schema.$Record<Schema.String, Schema.Unknown> = Body.annotate({
  description:
    "name, language, platform_id, template { name, category (UTILITY | MARKETING | AUTHENTICATION), header?, body, footer?, buttons?, code_expiration_minutes? }"
})

/**
 * The body of `POST /api/broadcasts/:id/send`: `contact_id`, and `components` for a template with
 * an offer code. Sent as multipart/form-data (`contact_id`, `header[file]`, `components[0][...]`)
 * when the template has a media header.
 */
export const SendTemplateBody: Schema.$Record<Schema.String, Schema.Unknown> = Body.annotate({
  description:
    "contact_id, components (offer code). As multipart/form-data (contact_id, header[file], components[0][...]) when the template has a media header."
})

/** `GET /api/platforms`: the account's sending numbers. */
export const ListPlatformsEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "listPlatforms",
  "GET",
  "/platforms",
  never,
  never,
  never,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: Schema.$Array<typeof PlatformJson> }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.get("listPlatforms", "/platforms", {
  success: Schema.Struct({ data: Schema.Array(PlatformJson) }),
  error: errors
}).annotate(OpenApi.Description, "The account's sending numbers (never their access tokens). Permission broadcast-index.")

/** `POST /api/platforms`: registers a sending number. */
export const CreatePlatformEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "createPlatform",
  "POST",
  "/platforms",
  never,
  never,
  Schema.toCodecJson<typeof PlatformBody>,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof PlatformJson; readonly message: Schema.String }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.post("createPlatform", "/platforms", {
  payload: PlatformBody,
  success: Schema.Struct({ data: PlatformJson, message: Schema.String }).pipe(HttpApiSchema.status(201)),
  error: errors
}).annotate(
  OpenApi.Description,
  "Registers a sending number on a provider: sandbox (for development and tests) or whatsapp_cloud. Permission broadcast-manage."
)

/** `GET /api/broadcasts`: the account's broadcasts (registered templates). */
export const ListBroadcastsEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "listBroadcasts",
  "GET",
  "/broadcasts",
  never,
  never,
  never,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: Schema.$Array<typeof BroadcastJson> }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.get("listBroadcasts", "/broadcasts", {
  success: Schema.Struct({ data: Schema.Array(BroadcastJson) }),
  error: errors
}).annotate(OpenApi.Description, "The account's broadcasts, each one template with its status. Permission broadcast-index.")

/** `POST /api/broadcasts`: registers a template as a broadcast. */
export const CreateBroadcastEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "createBroadcast",
  "POST",
  "/broadcasts",
  never,
  never,
  Schema.toCodecJson<typeof BroadcastBody>,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof BroadcastJson; readonly message: Schema.String }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.post("createBroadcast", "/broadcasts", {
  payload: BroadcastBody,
  success: Schema.Struct({ data: BroadcastJson, message: Schema.String }).pipe(HttpApiSchema.status(201)),
  error: errors
}).annotate(
  OpenApi.Description,
  "Registers a template on one of the account's sending numbers; it is APPROVED at once. Permission broadcast-manage."
)

/** `GET /api/broadcasts/:id`: one broadcast of the account. */
export const ShowBroadcastEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "showBroadcast",
  "GET",
  "/broadcasts/:id",
  Schema.toCodecStringTree<Schema.Struct<{ id: typeof IntegerIdParam }>>,
  never,
  never,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof BroadcastJson }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.get("showBroadcast", "/broadcasts/:id", {
  params: { id: IntegerIdParam },
  success: Schema.Struct({ data: BroadcastJson }),
  error: errors
}).annotate(OpenApi.Description, "One broadcast of the account with its template and status. Permission broadcast-index.")

/** `POST /api/broadcasts/:id/send`: sends the broadcast's template to a contact. */
export const SendBroadcastEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "send",
  "POST",
  "/broadcasts/:id/send",
  Schema.toCodecStringTree<Schema.Struct<{ id: typeof IntegerIdParam }>>,
  never,
  Schema.toCodecJson<typeof SendTemplateBody>,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof MessageJson }>>,
  Schema.toCodecJson<CommonErrors | typeof ServiceUnavailable503WithRetryAfter>
> = HttpApiEndpoint.post("send", "/broadcasts/:id/send", {
  params: { id: IntegerIdParam },
  payload: SendTemplateBody,
  success: Schema.Struct({ data: MessageJson }),
  error: [...errors, ServiceUnavailable503WithRetryAfter]
}).annotate(
  OpenApi.Description,
  "Sends the broadcast's (non-authentication) template to a contact. header[file]: at most 10 MB of application/pdf, image/jpeg, image/jpg, image/png or video/mp4. Permission broadcast-send."
)

/** @ignore */
export const MessagingGroupBase: HttpApiGroup.AddPrefix<
  HttpApiGroup.AddMiddleware<
    HttpApiGroup.HttpApiGroup<
      "messaging",
      | typeof ListPlatformsEndpoint
      | typeof CreatePlatformEndpoint
      | typeof ListBroadcastsEndpoint
      | typeof CreateBroadcastEndpoint
      | typeof ShowBroadcastEndpoint
      | typeof SendBroadcastEndpoint
    >,
    Authentication
  >,
  "/api"
> = HttpApiGroup.make("messaging")
  .add(ListPlatformsEndpoint)
  .add(CreatePlatformEndpoint)
  .add(ListBroadcastsEndpoint)
  .add(CreateBroadcastEndpoint)
  .add(ShowBroadcastEndpoint)
  .add(SendBroadcastEndpoint)
  .middleware(Authentication)
  .prefix("/api")

/**
 * WhatsApp messaging: the account's sending numbers (platforms), its broadcasts (one registered
 * template each) and template sends to a contact. Reading needs broadcast-index, registering
 * broadcast-manage, sending broadcast-send; one-time passwords are in `OtpGroup`.
 */
export class MessagingGroup extends MessagingGroupBase {}
