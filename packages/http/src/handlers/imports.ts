import { Effect, type Layer, Stream } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpServerResponse } from "effect/http"
import { Multipart } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { getImport, importErrorsCsv, startImport, type UploadPart } from "@wasl/core/Imports"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** A multipart part as the import use-case reads it: a field's value, or a file's streaming bytes. */
const uploadPart = (part: Multipart.Part): UploadPart<Multipart.MultipartError> =>
  Multipart.isField(part)
    ? { _tag: "Field", key: part.key, value: part.value }
    : { _tag: "File", key: part.key, name: part.name, content: part.content }

/** The handlers of the `imports` group: CSV imports of records. */
export const ImportHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "imports">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "imports", (handlers) =>
  handlers
    .handle("start", ({ params, payload }) =>
      Effect.gen(function*() {
        const parts = Stream.map(payload, uploadPart)
        return { data: yield* domain(startImport(yield* CurrentPrincipal, params.kind, parts)) }
      }))
    .handle("show", ({ params }) =>
      Effect.gen(function*() {
        return { data: yield* domain(getImport(yield* CurrentPrincipal, params.kind, params.id)) }
      }))
    .handle("errors", ({ params }) =>
      Effect.gen(function*() {
        const csv = yield* domain(importErrorsCsv(yield* CurrentPrincipal, params.kind, params.id))
        return HttpServerResponse.stream(Stream.encodeText(csv), {
          contentType: "text/csv; charset=utf-8",
          headers: { "content-disposition": `attachment; filename="import-${params.id}-errors.csv"` }
        })
      })))
