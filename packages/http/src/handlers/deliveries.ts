import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { listDeliveries, recoverDeliveries, redeliver } from "@wasl/core/Deliveries"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { WEBHOOK_CREATED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** A path id: decimal digits only, else NaN (which the use-cases answer with 404). */
const webhookId = (raw: string): number => /^[0-9]{1,15}$/.test(raw) ? Number(raw) : Number.NaN

/** The handlers of the `deliveries` group: a webhook's delivery log, redelivery and recovery. */
export const DeliveryHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "deliveries">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "deliveries", (handlers) =>
  handlers
    .handle("list", ({ params }) =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listDeliveries(yield* CurrentPrincipal, webhookId(params.id), request.input)))
      }))
    .handle("redeliver", ({ params }) =>
      Effect.gen(function*() {
        const data = yield* domain(redeliver(yield* CurrentPrincipal, webhookId(params.id), params.delivery_id))
        return { data, message: WEBHOOK_CREATED }
      }))
    .handle("recover", ({ params, payload }) =>
      Effect.gen(function*() {
        const data = yield* domain(recoverDeliveries(yield* CurrentPrincipal, webhookId(params.id), payload))
        return { data, message: WEBHOOK_CREATED }
      })))
