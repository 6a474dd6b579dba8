import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { cancelCampaign, createCampaign, getCampaign, listCampaignRecipients, listCampaigns } from "@wasl/core/Messaging"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `campaigns` group: ask for, list, read and cancel campaigns. */
export const CampaignHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "campaigns">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "campaigns", (handlers) =>
  handlers
    .handle("createCampaign", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(createCampaign(yield* CurrentPrincipal, params.id, payload)) }
      }))
    .handle("listCampaigns", () =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listCampaigns(yield* CurrentPrincipal, request.input)))
      }))
    .handle("showCampaign", ({ params }) =>
      Effect.gen(function*() {
        return { data: yield* domain(getCampaign(yield* CurrentPrincipal, params._id)) }
      }))
    .handle("listCampaignRecipients", ({ params }) =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listCampaignRecipients(yield* CurrentPrincipal, params._id, request.input)))
      }))
    .handle("cancelCampaign", ({ params }) =>
      Effect.gen(function*() {
        return { data: yield* domain(cancelCampaign(yield* CurrentPrincipal, params._id)) }
      })))
