import { Effect, type Layer } from "effect"
import { HttpServerResponse, type HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { downloadExport, getExport, requestExport } from "@wasl/core/Exports"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `exports` group: CSV exports of records. */
export const ExportHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "exports">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "exports", (handlers) =>
  handlers
    .handle("request", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(requestExport(yield* CurrentPrincipal, params.kind, payload)) }
      }))
    .handle("show", ({ params }) =>
      Effect.gen(function*() {
        return { data: yield* domain(getExport(yield* CurrentPrincipal, params.id)) }
      }))
    .handle("download", ({ params }) =>
      Effect.gen(function*() {
        const file = yield* domain(downloadExport(yield* CurrentPrincipal, params.id))
        // The file is sent chunk by chunk as it is read; its length is known, so a download cut
        // short (the file pruned meanwhile) is a truncated body to the client, never a short file.
        return HttpServerResponse.stream(file.body, {
          contentType: "text/csv; charset=utf-8",
          contentLength: file.byteSize,
          headers: { "content-disposition": `attachment; filename="${file.fileName}"`, "cache-control": "no-store" }
        })
      })))
