import { Effect, type Layer } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse, type HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  completeTwoFactorLogin,
  login,
  logout,
  type OpenedSession,
  RateLimitPolicy,
  SESSION_LIFETIME,
  TWO_FACTOR_LOGIN_LIFETIME
} from "@wasl/core/Auth"
import { invalid } from "@wasl/core/Errors"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import { clientAddress, limitRequest } from "../rate-limit.ts"
import { reachedOverHttps } from "../request-origin.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal, SESSION_COOKIE } from "../security.ts"
import { TWO_FACTOR_COOKIE } from "../two-factor-api.ts"

/**
 * The session cookie's attributes: HttpOnly, SameSite=Lax, for the whole site, and `Secure` when
 * the client reached Wasl over HTTPS, so the browser never sends it back over plain http. Not
 * over plain http, where a `Secure` cookie would not be stored at all (a local start).
 */
const cookieOptions = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(reachedOverHttps(request), (secure) => ({ httpOnly: true, sameSite: "lax", path: "/", secure } as const))

/** The pending login's cookie goes back only to the endpoint that completes it. */
const TWO_FACTOR_PATH = "/api/auth/two-factor"

/** Sets a cookie on the answer, or expires it (`value` undefined). */
const answerCookie = (name: string, value: string | undefined, options: Record<string, unknown>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(
      value === undefined
        ? HttpServerResponse.expireCookieUnsafe(response, name, options)
        : HttpServerResponse.setCookieUnsafe(response, name, value, options)
    )
  )

/** A login's session: its cookie on the answer (and the pending login's expired, when there was one), the user in it. */
const sessionAnswer = (request: HttpServerRequest.HttpServerRequest, session: OpenedSession, pending: boolean) =>
  Effect.gen(function*() {
    const options = yield* cookieOptions(request)
    yield* answerCookie(SESSION_COOKIE, session.cookie, { ...options, maxAge: SESSION_LIFETIME })
    if (pending) yield* answerCookie(TWO_FACTOR_COOKIE, undefined, { ...options, path: TWO_FACTOR_PATH })
    return { data: session.user }
  })

/**
 * The handlers of the `auth` group: login sets the session cookie (or, with two-factor on, the
 * pending login's cookie, which the second step turns into a session), logout ends the session
 * and expires it.
 *
 * Login attempts are limited (`RateLimitPolicy.login`) per email address, lower-cased, and per
 * client address, each counted apart. Every attempt counts, right or wrong: the limit is checked
 * before the password, so a refused attempt costs no password hash, and counting successes too
 * costs a user little (a session lasts). Second steps count per client address under the same
 * rule, beside the five attempts each pending login allows.
 *
 * The pending login is identified by the HttpOnly `wasl_two_factor` cookie, a random value whose
 * hash only is stored, sent back only to `/api/auth/two-factor`, for 5 minutes: a script of the
 * page cannot read it, and the client holds nothing to pass around.
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
          const result = yield* domain(login(payload.email, payload.password))
          if (result._tag === "Session") return yield* sessionAnswer(request, result, false)
          const options = yield* cookieOptions(request)
          yield* answerCookie(TWO_FACTOR_COOKIE, result.challenge, {
            ...options,
            path: TWO_FACTOR_PATH,
            maxAge: TWO_FACTOR_LOGIN_LIFETIME
          })
          return { two_factor: true } as const
        }))
      .handle("twoFactor", ({ payload }) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          yield* limitRequest([[`two-factor-address:${clientAddress(request)}`, policy.login]])
          const { code, recovery_code } = payload
          if ((code === undefined) === (recovery_code === undefined)) {
            return yield* domain(Effect.fail(invalid("code", "Send the code of your app, or a recovery code.")))
          }
          const factor = code !== undefined ? { code } : { recoveryCode: recovery_code! }
          const challenge = request.cookies[TWO_FACTOR_COOKIE] ?? ""
          const session = yield* domain(completeTwoFactorLogin(challenge, factor))
          return yield* sessionAnswer(request, session, true)
        }))
      .handle("logout", () =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          if (principal.sessionId !== null) yield* logout(principal.sessionId)
          const options = yield* cookieOptions(yield* HttpServerRequest.HttpServerRequest)
          yield* answerCookie(SESSION_COOKIE, undefined, options)
        }))
  }))

