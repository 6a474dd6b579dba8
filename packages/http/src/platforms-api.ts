/** One sending number (platform): read, change, re-read from Meta, remove. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { PlatformJson } from "@wasl/core/Messaging"
import { DeletedAnswer } from "./deleted-answer.ts"
import type { CommonErrors } from "./errors.ts"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { IntegerIdParam } from "./messaging-api.ts"
import { ServiceUnavailable503WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

/**
 * The body of `PUT /api/platforms/{id}`: `name` and `access_token` (write-only: never answered
 * back), each optional. Validated by the use-case with Laravel's messages.
 */
export const PlatformChangesBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown)
  .annotate({ description: "name?, access_token? (write-only)" })

/** `GET /api/platforms/:id`: one sending number of the account. */
export const ShowPlatformEndpoint: WaslEndpoint<"showPlatform", "GET", "/platforms/:id", {
  params: PathParams<{ id: typeof IntegerIdParam }>; success: DataAnswer<typeof PlatformJson>
}> = HttpApiEndpoint.get("showPlatform", "/platforms/:id", {
  params: { id: IntegerIdParam },
  success: DataAnswer(PlatformJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a sending number").annotate(
  OpenApi.Description,
  "One sending number of the account with its health as Meta last told it (verified_name, code_verification_status, quality_rating, messaging_limit_tier; null on the sandbox, which has no Meta number behind it). Permission broadcast-index."
)

/** `PUT /api/platforms/:id`: renames the number or replaces its access token. */
export const UpdatePlatformEndpoint: WaslEndpoint<"updatePlatform", "PUT", "/platforms/:id", {
  params: PathParams<{ id: typeof IntegerIdParam }>; payload: typeof PlatformChangesBody; success: DataMessageAnswer<typeof PlatformJson>
}> = HttpApiEndpoint.put("updatePlatform", "/platforms/:id", {
  params: { id: IntegerIdParam },
  payload: PlatformChangesBody,
  success: DataMessageAnswer(PlatformJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "Change a sending number").annotate(
  OpenApi.Description,
  "Changes the number's name and access token (write-only: sealed at rest, never answered back); a new token on a whatsapp_cloud number re-reads its health from Meta. Permission broadcast-manage."
)

/** `POST /api/platforms/:id/refresh`: re-reads the number's health from Meta. */
export const RefreshPlatformEndpoint: WaslEndpoint<"refreshPlatform", "POST", "/platforms/:id/refresh", {
  params: PathParams<{ id: typeof IntegerIdParam }>; success: DataAnswer<typeof PlatformJson>
  error: CommonErrors | typeof ServiceUnavailable503WithRetryAfter
}> = HttpApiEndpoint.post("refreshPlatform", "/platforms/:id/refresh", {
  params: { id: IntegerIdParam },
  success: DataAnswer(PlatformJson),
  error: [...commonErrors, ServiceUnavailable503WithRetryAfter]
}).annotate(OpenApi.Summary, "Refresh a sending number's health").annotate(
  OpenApi.Description,
  "Asks Meta (GET /{phone_id}) for the number's verified_name, code_verification_status, quality_rating and messaging_limit_tier and stores them. 422 on access_token when Meta refuses the number's id or token; 503 with Retry-After when Meta cannot be reached. Permission broadcast-manage."
)

/** `DELETE /api/platforms/:id`: removes the number and its broadcasts. */
export const DeletePlatformEndpoint: WaslEndpoint<"deletePlatform", "DELETE", "/platforms/:id", {
  params: PathParams<{ id: typeof IntegerIdParam }>; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("deletePlatform", "/platforms/:id", {
  params: { id: IntegerIdParam },
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a sending number").annotate(
  OpenApi.Description,
  "Removes the number and its broadcasts (the templates registered on it); the messages sent and received on it stay in their conversations, no longer linked to a broadcast. 422 on id while a campaign that has not ended (scheduled, queued, running or paused) sends through it: cancel it first. Permission broadcast-manage."
)

const PlatformsGroupBase: AuthenticatedGroup<
  "platforms",
  | typeof ShowPlatformEndpoint
  | typeof UpdatePlatformEndpoint
  | typeof RefreshPlatformEndpoint
  | typeof DeletePlatformEndpoint
> = HttpApiGroup.make("platforms")
  .add(ShowPlatformEndpoint)
  .add(UpdatePlatformEndpoint)
  .add(RefreshPlatformEndpoint)
  .add(DeletePlatformEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "One sending number: its health as Meta tells it, its name and access token, and its removal."
  )

/**
 * One sending number (platform): read (broadcast-index), change, refresh from Meta and remove
 * (broadcast-manage). Listing and registering numbers are in `MessagingGroup`.
 */
export class PlatformsGroup extends PlatformsGroupBase {}
