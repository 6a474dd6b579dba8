import { Effect, type Layer } from "effect"
import { HttpEffect, HttpServerResponse, type HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { login, logout, SESSION_LIFETIME } from "@wasl/core"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal, SESSION_COOKIE } from "../security.ts"

const cookieOptions = {
  httpOnly: true,
  sameSite: "lax",
  path: "/"
} as const

/** The handlers of the `auth` group: login sets the session cookie, logout ends the session and expires it. */
export const AuthHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "auth">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "auth", (handlers) =>
  handlers
    .handle("login", ({ payload }) =>
      Effect.gen(function*() {
        const { cookie, user } = yield* domain(login(payload.email, payload.password))
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.setCookieUnsafe(response, SESSION_COOKIE, cookie, {
            ...cookieOptions,
            maxAge: SESSION_LIFETIME
          }))
        )
        return { data: user }
      }))
    .handle("logout", () =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        if (principal.sessionId !== null) yield* logout(principal.sessionId)
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.expireCookieUnsafe(response, SESSION_COOKIE, cookieOptions))
        )
      })))
