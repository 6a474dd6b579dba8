/** Sending numbers, broadcasts and template sends (spec §2.7, §2.8, §4.1; decisions §7). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BroadcastJson, MessageJson, PlatformJson } from "@wasl/core"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { ServiceUnavailable503WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

/** Integer ids of platforms and broadcasts; anything else is a 404 (the boundary maps Params errors). */
export const IntegerIdParam = Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0))

const Body = Schema.Record(Schema.String, Schema.Unknown)
const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

export class MessagingGroup extends HttpApiGroup.make("messaging")
  .add(HttpApiEndpoint.get("listPlatforms", "/platforms", {
    success: Schema.Struct({ data: Schema.Array(PlatformJson) }),
    error: errors
  }))
  .add(
    HttpApiEndpoint.post("createPlatform", "/platforms", {
      payload: Body.annotate({
        description: "name, display_phone_number, provider (sandbox | whatsapp_cloud), phone_id?, waba_id?, access_token? (write-only)"
      }),
      success: Schema.Struct({ data: PlatformJson, message: Schema.String }).pipe(HttpApiSchema.status(201)),
      error: errors
    })
  )
  .add(HttpApiEndpoint.get("listBroadcasts", "/broadcasts", {
    success: Schema.Struct({ data: Schema.Array(BroadcastJson) }),
    error: errors
  }))
  .add(HttpApiEndpoint.post("createBroadcast", "/broadcasts", {
    payload: Body.annotate({
      description:
        "name, language, platform_id, template { name, category (UTILITY | MARKETING | AUTHENTICATION), header?, body, footer?, buttons?, code_expiration_minutes? }"
    }),
    success: Schema.Struct({ data: BroadcastJson, message: Schema.String }).pipe(HttpApiSchema.status(201)),
    error: errors
  }))
  .add(HttpApiEndpoint.get("showBroadcast", "/broadcasts/:id", {
    params: { id: IntegerIdParam },
    success: Schema.Struct({ data: BroadcastJson }),
    error: errors
  }))
  .add(
    HttpApiEndpoint.post("send", "/broadcasts/:id/send", {
      params: { id: IntegerIdParam },
      payload: Body.annotate({
        description:
          "contact_id, components (offer code). As multipart/form-data (contact_id, header[file], components[0][...]) when the template has a media header."
      }),
      success: Schema.Struct({ data: MessageJson }),
      error: [...errors, ServiceUnavailable503WithRetryAfter]
    }).annotate(
      OpenApi.Description,
      "Sends the broadcast's (non-authentication) template to a contact. header[file]: at most 10 MB of application/pdf, image/jpeg, image/jpg, image/png or video/mp4."
    )
  )
  .middleware(Authentication)
  .prefix("/api")
{}
