import { Effect, type Layer } from "effect"
import { type HttpRouter, HttpServerRequest } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { createPipeline, deletePipeline, getPipeline, listPipelines, pipelineJson, updatePipeline } from "@wasl/core/Records"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { CREATED, DELETED, MODIFIED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The query's `move_to`, where a deleted pipeline's records go (none when absent or blank). */
const moveTo = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const q = request.url.indexOf("?")
  const value = q === -1 ? null : new URLSearchParams(request.url.slice(q + 1)).get("move_to")
  return value === null || value.trim() === "" ? undefined : value.trim()
})

/** The handlers of the `pipelines` group. */
export const PipelineHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "pipelines">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "pipelines", (handlers) =>
  handlers
    .handle("list", ({ params }) =>
      Effect.gen(function*() {
        return { data: (yield* domain(listPipelines(yield* CurrentPrincipal, params.kind))).map(pipelineJson) }
      }))
    .handle("create", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: pipelineJson(yield* domain(createPipeline(yield* CurrentPrincipal, params.kind, payload))), message: CREATED }
      }))
    .handle("show", ({ params }) =>
      Effect.gen(function*() {
        return { data: pipelineJson(yield* domain(getPipeline(yield* CurrentPrincipal, params.kind, params.id))) }
      }))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        const pipeline = yield* domain(updatePipeline(yield* CurrentPrincipal, params.kind, params.id, payload))
        return { data: pipelineJson(pipeline), message: MODIFIED }
      }))
    .handle("delete", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deletePipeline(yield* CurrentPrincipal, params.kind, params.id, yield* moveTo))
        return { message: DELETED, data: [] as const }
      })))
