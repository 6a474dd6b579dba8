import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  createAccount,
  listMyAccounts,
  requestEmailChange,
  sendEmailVerification,
  switchAccount,
  updateAccountSettings,
  updateMemberPreferences
} from "@wasl/core/Accounts"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { CREATED, MODIFIED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `accounts` group: the caller's accounts, their settings, and its e-mail. */
export const AccountHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "accounts">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "accounts", (handlers) =>
  handlers
    .handle("listMine", () =>
      Effect.gen(function*() {
        return { data: yield* listMyAccounts(yield* CurrentPrincipal) }
      }))
    .handle("switch", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(switchAccount(yield* CurrentPrincipal, payload.account_id)), message: MODIFIED }
      }))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(createAccount(yield* CurrentPrincipal, payload.name)), message: CREATED }
      }))
    .handle("update", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(updateAccountSettings(yield* CurrentPrincipal, payload)), message: MODIFIED }
      }))
    .handle("preferences", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(updateMemberPreferences(yield* CurrentPrincipal, payload)), message: MODIFIED }
      }))
    .handle("changeEmail", ({ payload }) =>
      Effect.gen(function*() {
        const user = yield* domain(requestEmailChange(yield* CurrentPrincipal, payload.email, payload.password))
        return { data: user, message: `A confirmation link was sent to ${user.change_email_to}.` }
      }))
    .handle("sendVerification", () =>
      Effect.gen(function*() {
        const sent = yield* domain(sendEmailVerification((yield* CurrentPrincipal).userId))
        return { message: sent ? "A verification link was sent to your e-mail address." : "Your e-mail address is already verified." }
      })))
