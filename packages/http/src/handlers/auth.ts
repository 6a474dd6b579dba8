import { Effect, type Layer } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse, type HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { login, logout, RateLimitPolicy, SESSION_LIFETIME } from "@wasl/core"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import { clientAddress, limitRequest } from "../rate-limit.ts"
import { reachedOverHttps } from "../request-origin.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal, SESSION_COOKIE } from "../security.ts"

/**
 * The session cookie's attributes: HttpOnly, SameSite=Lax, for the whole site, and `Secure` when
 * the client reached Wasl over HTTPS, so the browser never sends it back over plain http. Not
 * over plain http, where a `Secure` cookie would not be stored at all (a local start).
 */
const cookieOptions = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(reachedOverHttps(request), (secure) => ({ httpOnly: true, sameSite: "lax", path: "/", secure } as const))

/**
 * The handlers of the `auth` group: login sets the session cookie, logout ends the session and
 * expires it.
 *
 * Login attempts are limited (`RateLimitPolicy.login`) per email address, lower-cased, and per
 * client address, each counted apart. Every attempt counts, right or wrong: the limit is checked
 * before the password, so a refused attempt costs no password hash, and counting successes too
 * costs a user little (a session lasts).
 */
export const AuthHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "auth">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "auth", (handlers) =>
  Effect.gen(function*() {
    const policy = yield* RateLimitPolicy
    return handlers
    .handle("login", ({ payload }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        yield* limitRequest([
          [`login-email:${payload.email.trim().toLowerCase()}`, policy.login],
          [`login-address:${clientAddress(request)}`, policy.login]
        ])
        const { cookie, user } = yield* domain(login(payload.email, payload.password))
        const options = yield* cookieOptions(request)
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.setCookieUnsafe(response, SESSION_COOKIE, cookie, { ...options, maxAge: SESSION_LIFETIME }))
        )
        return { data: user }
      }))
    .handle("logout", () =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        if (principal.sessionId !== null) yield* logout(principal.sessionId)
        const options = yield* cookieOptions(yield* HttpServerRequest.HttpServerRequest)
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.expireCookieUnsafe(response, SESSION_COOKIE, options))
        )
      }))
  }))
