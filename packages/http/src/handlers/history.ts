import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { listHistory } from "@wasl/core/Records"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `history` group: a record's property history. */
export const HistoryHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "history">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "history", (handlers) =>
  handlers.handle("list", ({ params }) =>
    Effect.gen(function*() {
      const request = yield* listRequest
      const page = yield* domain(listHistory(yield* CurrentPrincipal, params.kind, params.id, request.input))
      return paginated(request, page)
    })))
