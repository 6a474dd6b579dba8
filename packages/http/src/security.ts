/**
 * Authentication middleware: a Sanctum bearer token, or the first-party
 * session cookie. Session requests that change state must carry
 * `X-Requested-With: XMLHttpRequest` (CSRF guard, decisions §2).
 */
import { Context, Effect, Layer, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { authenticateSession, authenticateToken, type Principal, TokenHasher, SessionRepository, TeamRepository, TokenRepository, UserRepository } from "@wasl/core"
import { Forbidden403, fromDomain, Unauthenticated401 } from "./errors.ts"

export const SESSION_COOKIE = "wasl_session"

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("@wasl/http/CurrentPrincipal") {}

export class Authentication extends HttpApiMiddleware.Service<Authentication, {
  provides: CurrentPrincipal
  requires: never
}>()("@wasl/http/Authentication", {
  security: {
    bearer: HttpApiSecurity.bearer,
    session: HttpApiSecurity.apiKey({ key: SESSION_COOKIE, in: "cookie" })
  },
  error: [Unauthenticated401, Forbidden403]
}) {}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const services = yield* Effect.context<
      TokenRepository | SessionRepository | UserRepository | TeamRepository | TokenHasher
    >()
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provideContext(effect, services)
    return Authentication.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const principal = yield* run(authenticateToken(Redacted.value(credential))).pipe(Effect.mapError(fromDomain))
          return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
        }),
      session: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const value = Redacted.value(credential)
          if (value === "") return yield* new Unauthenticated401({ message: "Unauthenticated." })
          const principal = yield* run(authenticateSession(value)).pipe(Effect.mapError(fromDomain))
          const request = yield* HttpServerRequest.HttpServerRequest
          if (!SAFE_METHODS.has(request.method) && request.headers["x-requested-with"] !== "XMLHttpRequest") {
            return yield* new Forbidden403({ message: "CSRF check failed: send X-Requested-With: XMLHttpRequest." })
          }
          return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
        })
    })
  })
)
