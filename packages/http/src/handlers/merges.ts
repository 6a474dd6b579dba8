import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { mergeRecords } from "@wasl/core/Records"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { MODIFIED } from "../messages.ts"
import { recordWrittenAnswer } from "../record-answers.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `merges` group. */
export const MergeHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "merges">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "merges", (handlers) =>
  handlers.handle("merge", ({ params, payload }) =>
    Effect.gen(function*() {
      return recordWrittenAnswer(yield* domain(mergeRecords(yield* CurrentPrincipal, params.kind, params.id, payload)), MODIFIED, 200)
    })))
