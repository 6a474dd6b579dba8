import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { createToken, listTokens, revokeToken } from "@wasl/core/Auth"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { DELETED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `tokens` group: the caller's API tokens. */
export const TokenHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "tokens">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "tokens", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listTokens(yield* CurrentPrincipal, request.input)))
      }))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        const { plainText, token } = yield* domain(createToken(yield* CurrentPrincipal, payload))
        return { data: token, token: plainText }
      }))
    .handle("revoke", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(revokeToken(yield* CurrentPrincipal, params.id))
        return { message: DELETED, data: [] as const }
      })))
