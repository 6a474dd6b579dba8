/**
 * Authentication middleware: a Sanctum bearer token, or the first-party
 * session cookie. Session requests that change state must carry
 * `X-Requested-With: XMLHttpRequest` (the CSRF guard).
 */
import { Context, Effect, Layer, Redacted } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { TeamRepository, UserRepository } from "@wasl/core/Accounts"
import {
  authenticateSession,
  authenticateToken,
  type Principal,
  RateLimiter,
  RateLimitPolicy,
  SecretBox,
  SessionRepository,
  TokenHasher,
  TokenRepository
} from "@wasl/core/Auth"
import { IdempotencyStore } from "@wasl/core/Idempotency"
import { Forbidden403, fromDomain, httpErrorResponse, Unauthenticated401 } from "./errors.ts"
import { idempotent } from "./idempotency.ts"
import { callerKey, limitRequest } from "./rate-limit.ts"
import { TooManyRequests429WithRetryAfter } from "./retry-after.ts"

/** The name of the first-party session cookie that `POST /api/auth/login` sets (HttpOnly, SameSite=Lax, and Secure over HTTPS). */
export const SESSION_COOKIE = "wasl_session"

const CurrentPrincipalBase: Context.ServiceClass<CurrentPrincipal, "@wasl/http/CurrentPrincipal", Principal> =
  Context.Service<CurrentPrincipal, Principal>()("@wasl/http/CurrentPrincipal")
/**
 * Who is calling, inside an authenticated endpoint: the user, the account the request acts in,
 * and the token's abilities (or the session). Provided by `Authentication`.
 */
export class CurrentPrincipal extends CurrentPrincipalBase {}

const AuthenticationBase: HttpApiMiddleware.ServiceClass<
  Authentication,
  "@wasl/http/Authentication",
  {
    requires: never
    provides: CurrentPrincipal
    error: readonly [typeof Unauthenticated401, typeof Forbidden403, typeof TooManyRequests429WithRetryAfter]
    clientError: never
    requiredForClient: false
    security: { readonly bearer: HttpApiSecurity.Http; readonly session: HttpApiSecurity.ApiKey }
  },
  HttpApiMiddleware.HttpApiMiddlewareSecurity<
    { readonly bearer: HttpApiSecurity.Http; readonly session: HttpApiSecurity.ApiKey },
    CurrentPrincipal,
    readonly [typeof Unauthenticated401, typeof Forbidden403, typeof TooManyRequests429WithRetryAfter],
    never
  >
> = HttpApiMiddleware.Service<Authentication, {
  provides: CurrentPrincipal
  requires: never
}>()("@wasl/http/Authentication", {
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Format, "<id>|<secret>"),
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "An API token, `Authorization: Bearer <id>|<secret>`, as POST /api/tokens answers it once. Its abilities limit what it may do."
      )
    ),
    session: HttpApiSecurity.apiKey({ key: SESSION_COOKIE, in: "cookie" }).pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "The first-party session cookie that POST /api/auth/login sets. A request that changes state must also send X-Requested-With: XMLHttpRequest."
      )
    )
  },
  error: [Unauthenticated401, Forbidden403, TooManyRequests429WithRetryAfter]
})
/**
 * The authentication of every endpoint but login: an API token as `Authorization: Bearer
 * <id>|<secret>`, or the `wasl_session` cookie of a first-party session. It provides
 * `CurrentPrincipal`; it fails with `Unauthenticated401` (no or bad credentials), `Forbidden403`
 * (a session request that changes state without `X-Requested-With: XMLHttpRequest`) or
 * `TooManyRequests429` (the caller is over its request rate limit, `RateLimitPolicy.caller`,
 * counted per token or, for sessions, per user; the `RateLimit-*` headers are on every answer).
 */
export class Authentication extends AuthenticationBase {}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

/**
 * The implementation of `Authentication` over the token, session, user and team ports. An
 * authenticated request first counts against the caller's rate limit (the `RateLimitPolicy`
 * provided, none by default); one that changes state with an `Idempotency-Key` then runs under
 * its key (idempotency.ts): the key belongs to the caller authenticated here.
 */
export const AuthenticationLive: Layer.Layer<
  Authentication,
  never,
  | IdempotencyStore
  | RateLimiter
  | SecretBox
  | SessionRepository
  | TeamRepository
  | TokenHasher
  | TokenRepository
  | UserRepository
> = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const tokens = yield* TokenRepository
    const sessions = yield* SessionRepository
    const users = yield* UserRepository
    const teams = yield* TeamRepository
    const hasher = yield* TokenHasher
    const { caller } = yield* RateLimitPolicy
    const limiter = yield* RateLimiter
    // The five services added to the request's context, not the whole context in scope here:
    // `Effect.provideContext` copies the request's context map (`Context.merge`) with every
    // service of the application on each authenticated request, about 5 % of `GET /api/me`'s CPU
    // and of its allocation (bench/README.md, "Where the time goes").
    const run = <A, E>(
      effect: Effect.Effect<A, E, TokenRepository | SessionRepository | UserRepository | TeamRepository | TokenHasher>
    ) =>
      Effect.updateContext(effect, (context: Context.Context<never>) =>
        context.pipe(
          Context.add(TokenRepository, tokens),
          Context.add(SessionRepository, sessions),
          Context.add(UserRepository, users),
          Context.add(TeamRepository, teams),
          Context.add(TokenHasher, hasher)
        ))
    const keys = { store: yield* IdempotencyStore, box: yield* SecretBox }
    // Counted once the caller is known, before the endpoint (or an idempotent replay) does
    // anything. Over the limit, the 429 is answered here rather than failed: a failing scheme hands
    // the request to the next one, and a bearer request would end as the session scheme's 401.
    const authenticated = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>, principal: Principal) => {
      const endpoint = Effect.provideService(idempotent(keys, principal, httpEffect), CurrentPrincipal, principal)
      // Without a caller limit there is nothing to count and no header to add: the endpoint at once.
      if (caller.limit <= 0) return endpoint
      return Effect.provideService(limitRequest([[callerKey(principal), caller]]), RateLimiter, limiter).pipe(
        Effect.matchEffect({
          onFailure: (tooMany) => Effect.succeed(httpErrorResponse(tooMany) as HttpServerResponse.HttpServerResponse),
          onSuccess: () => endpoint
        })
      )
    }
    return Authentication.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const principal = yield* run(authenticateToken(Redacted.value(credential))).pipe(Effect.mapError(fromDomain))
          return yield* authenticated(httpEffect, principal)
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
          return yield* authenticated(httpEffect, principal)
        })
    })
  })
)
