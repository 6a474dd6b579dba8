import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { Readiness } from "@wasl/core/Deployment"
import { WaslApi } from "../api.ts"
import { Unavailable503 } from "../health-api.ts"
import type { WaslHttpServices } from "../http-services.ts"

const OK = { status: "ok" } as const

/** The handlers of the `health` group: live answers at once, ready asks the Readiness port. */
export const HealthHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "health">,
  never,
  HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "health", (handlers) =>
  handlers
    .handle("live", () => Effect.succeed(OK))
    .handle("ready", () =>
      Effect.gen(function*() {
        const ready = yield* (yield* Readiness).check
        if (!ready) return yield* new Unavailable503({ status: "unavailable" })
        return OK
      })))
