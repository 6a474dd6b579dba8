import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { createView, deleteView, getView, listViews, savedViewJson, updateView } from "@wasl/core/Records"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { CREATED, DELETED, MODIFIED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `views` group. */
export const ViewHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "views">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "views", (handlers) =>
  handlers
    .handle("list", ({ params }) =>
      Effect.gen(function*() {
        return { data: (yield* domain(listViews(yield* CurrentPrincipal, params.kind))).map(savedViewJson) }
      }))
    .handle("create", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: savedViewJson(yield* domain(createView(yield* CurrentPrincipal, params.kind, payload))), message: CREATED }
      }))
    .handle("show", ({ params }) =>
      Effect.gen(function*() {
        return { data: savedViewJson(yield* domain(getView(yield* CurrentPrincipal, params.kind, params.id))) }
      }))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        const view = yield* domain(updateView(yield* CurrentPrincipal, params.kind, params.id, payload))
        return { data: savedViewJson(view), message: MODIFIED }
      }))
    .handle("delete", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deleteView(yield* CurrentPrincipal, params.kind, params.id))
        return { message: DELETED, data: [] as const }
      })))
