import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { confirmEmailChange, confirmEmailVerification } from "@wasl/core/Accounts"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { MODIFIED } from "../messages.ts"

/** The handlers of the `emailLinks` group: following a mailed change or verification link (no sign-in). */
export const EmailLinkHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "emailLinks">,
  never,
  HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "emailLinks", (handlers) =>
  handlers
    .handle("confirmChange", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(confirmEmailChange(payload.token)), message: MODIFIED }
      }))
    .handle("confirmVerification", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(confirmEmailVerification(payload.token)), message: MODIFIED }
      })))
