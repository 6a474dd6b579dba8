import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { changePassword, currentUser, CurrentUser, updateProfile } from "@wasl/core/Accounts"
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor } from "@wasl/core/Auth"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import { jsonAnswerOf } from "../json-answers.ts"
import { MODIFIED } from "../messages.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** `GET /api/me`'s answer, written from its schema rather than encoded through it on every request. */
const currentUserAnswer = jsonAnswerOf(CurrentUser)

/** The handlers of the `me` group: the calling user, its profile, password and two-factor authentication. */
export const MeHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "me">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "me", (handlers) =>
  handlers
    .handle("show", () =>
      Effect.gen(function*() {
        return currentUserAnswer(yield* domain(currentUser(yield* CurrentPrincipal)))
      }))
    .handle("updateProfile", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(updateProfile(yield* CurrentPrincipal, payload)), message: MODIFIED }
      }))
    .handle("changePassword", ({ payload }) =>
      Effect.gen(function*() {
        yield* domain(changePassword(yield* CurrentPrincipal, payload.current_password, payload.password))
      }))
    .handle("beginTwoFactor", () =>
      Effect.gen(function*() {
        return { data: yield* domain(beginTwoFactor((yield* CurrentPrincipal).userId)) }
      }))
    .handle("confirmTwoFactor", ({ payload }) =>
      Effect.gen(function*() {
        const codes = yield* domain(confirmTwoFactor((yield* CurrentPrincipal).userId, payload.code))
        return { data: { recovery_codes: codes } }
      }))
    .handle("disableTwoFactor", ({ payload }) =>
      Effect.gen(function*() {
        yield* domain(disableTwoFactor((yield* CurrentPrincipal).userId, payload.password))
      })))
