import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { deletePlatform, getPlatform, platformJson, refreshPlatform, updatePlatform } from "@wasl/core/Messaging"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { DELETED, MODIFIED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `platforms` group: one sending number read, changed, refreshed or removed. */
export const PlatformHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "platforms">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "platforms", (handlers) =>
  handlers
    .handle("showPlatform", ({ params }) =>
      Effect.gen(function*() {
        return { data: platformJson(yield* domain(getPlatform(yield* CurrentPrincipal, params.id))) }
      }))
    .handle("updatePlatform", ({ params, payload }) =>
      Effect.gen(function*() {
        const platform = yield* domain(updatePlatform(yield* CurrentPrincipal, params.id, payload))
        return { data: platformJson(platform), message: MODIFIED }
      }))
    .handle("refreshPlatform", ({ params }) =>
      Effect.gen(function*() {
        return { data: platformJson(yield* domain(refreshPlatform(yield* CurrentPrincipal, params.id))) }
      }))
    .handle("deletePlatform", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deletePlatform(yield* CurrentPrincipal, params.id))
        return { message: DELETED, data: [] as const }
      })))
