import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { login, logout, SESSION_LIFETIME } from "@wasl/core"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import { CurrentPrincipal, SESSION_COOKIE } from "../security.ts"

const cookieOptions = {
  httpOnly: true,
  sameSite: "lax",
  path: "/"
} as const

export const AuthHandlers = HttpApiBuilder.group(WaslApi, "auth", (handlers) =>
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
