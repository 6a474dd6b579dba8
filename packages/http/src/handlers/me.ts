import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { currentUser } from "@wasl/core"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handler of the `me` group: the calling user. */
export const MeHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "me">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "me", (handlers) =>
  handlers.handle("show", () =>
    Effect.gen(function*() {
      return yield* domain(currentUser(yield* CurrentPrincipal))
    })))
