import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { listTrash, purgeTrashedRecord, restoreRecord } from "@wasl/core/Records"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { DELETED, RESTORED } from "../messages.ts"
import { recordWrittenAnswer } from "../record-answers.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `trash` group: the deleted records of a kind. */
export const TrashHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "trash">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "trash", (handlers) =>
  handlers
    .handle("list", ({ params }) =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listTrash(yield* CurrentPrincipal, params.kind, request.input)))
      }))
    .handle("restore", ({ params }) =>
      Effect.gen(function*() {
        return recordWrittenAnswer(yield* domain(restoreRecord(yield* CurrentPrincipal, params.kind, params.id)), RESTORED, 200)
      }))
    .handle("purge", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(purgeTrashedRecord(yield* CurrentPrincipal, params.kind, params.id))
        return { message: DELETED, data: [] as const }
      })))
