import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { currentUser, CurrentUser } from "@wasl/core"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import { jsonAnswerOf } from "../json-answers.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** `GET /api/me`'s answer, written from its schema rather than encoded through it on every request. */
const currentUserAnswer = jsonAnswerOf(CurrentUser)

/** The handler of the `me` group: the calling user. */
export const MeHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "me">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "me", (handlers) =>
  handlers.handle("show", () =>
    Effect.gen(function*() {
      return currentUserAnswer(yield* domain(currentUser(yield* CurrentPrincipal)))
    })))
