/**
 * Rate limits at the HTTP edge: a request counts under its keys (the caller, a login's email and
 * client address, an account's OTP verifications, the client address of a metrics scrape without
 * the metrics token) before its handler does any work, every answer
 * then carries the `RateLimit-*` headers of the tightest limit, and a request over a limit is
 * answered 429 with `Retry-After`.
 */
import { Effect, Option } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  consumeRate,
  type Principal,
  rateLimited,
  type RateDecision,
  type RateLimiter,
  type RateRule
} from "@wasl/core/Auth"
import { TooManyRequests429 } from "./errors.ts"

/** The response headers of a limit, lower-cased: the limit, what is left, and the seconds until the count starts over. */
export const RATE_LIMIT_HEADERS: {
  /** The requests allowed per window. */
  readonly limit: "ratelimit-limit"
  /** The requests left in the window. */
  readonly remaining: "ratelimit-remaining"
  /** Seconds until the window ends and the count starts over. */
  readonly reset: "ratelimit-reset"
} = { limit: "ratelimit-limit", remaining: "ratelimit-remaining", reset: "ratelimit-reset" }

/** The key of an authenticated caller: its API token, or the user of a session (all its sessions share it). */
export const callerKey = (principal: Principal): string =>
  principal.tokenId !== null ? `token:${principal.tokenId}` : `user:${principal.userId}`

/**
 * The client address of a request, as the limits per address count it: the connection's peer,
 * or behind a trusted proxy the address it forwards (`TrustedProxies`).
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

/** Whether `decision` is tighter than the one the headers already show: fewer left, or as few for longer. */
const tighter = (decision: RateDecision, response: HttpServerResponse.HttpServerResponse) => {
  const remaining = response.headers[RATE_LIMIT_HEADERS.remaining]
  if (remaining === undefined) return true
  const shown = Number(remaining)
  return decision.remaining < shown ||
    (decision.remaining === shown && decision.resetSeconds > Number(response.headers[RATE_LIMIT_HEADERS.reset]))
}

const showOnAnswer = (decision: RateDecision) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(
      tighter(decision, response)
        ? HttpServerResponse.setHeaders(response, {
          [RATE_LIMIT_HEADERS.limit]: String(decision.limit),
          [RATE_LIMIT_HEADERS.remaining]: String(decision.remaining),
          [RATE_LIMIT_HEADERS.reset]: String(decision.resetSeconds)
        })
        : response
    )
  )

/**
 * Counts this request under each key against its rule (a rule that is off counts nothing), puts
 * the `RateLimit-*` headers of the tightest limit on whatever the answer is, and fails with 429
 * when any limit is exceeded (`Retry-After`: when the last of them starts over). Every key is
 * counted even when an earlier one already refuses, so each count is right on its own.
 */
export const limitRequest = (
  limits: ReadonlyArray<readonly [key: string, rule: RateRule]>
): Effect.Effect<void, TooManyRequests429, RateLimiter | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    let refused: RateDecision | undefined
    for (const [key, rule] of limits) {
      const decision = yield* consumeRate(key, rule)
      if (Option.isNone(decision)) continue
      yield* showOnAnswer(decision.value)
      if (!decision.value.allowed && (refused === undefined || decision.value.resetSeconds > refused.resetSeconds)) {
        refused = decision.value
      }
    }
    if (refused !== undefined) {
      const error = rateLimited(refused)
      return yield* new TooManyRequests429({ message: error.message, retryAfter: error.retryAfter })
    }
  })

const headerDoc = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } })

/** What the OpenAPI document says of the headers, for a reader who has nothing else. */
const HEADER_DOCS = {
  "RateLimit-Limit": headerDoc(
    "The requests allowed per window by the tightest limit on this request. Sent when the server limits request rates."
  ),
  "RateLimit-Remaining": headerDoc("The requests left in the current window."),
  "RateLimit-Reset": headerDoc("Seconds until the window ends and the count starts over.")
}

const RETRY_AFTER_DOC = "Seconds to wait before trying again."

/** Whether an operation is rate-limited: every authenticated one, and login with its second step. */
const isLimited = (operation: { readonly operationId?: string; readonly security?: ReadonlyArray<unknown> }) =>
  (operation.security !== undefined && operation.security.length > 0) || operation.operationId === "auth.login" ||
  operation.operationId === "auth.twoFactor"

/**
 * Declares the `RateLimit-*` headers on the answers of every rate-limited operation of an
 * OpenAPI document (all but a 401, which no limit counts), and describes the 429's `Retry-After`.
 * An `OpenApi.Transform` of `WaslApi`: the headers are the boundary's, no endpoint declares them.
 */
export const declareRateLimitHeaders = (document: Record<string, any>): Record<string, any> => {
  for (const item of Object.values<Record<string, any>>(document["paths"] ?? {})) {
    for (const operation of Object.values<any>(item)) {
      if (typeof operation !== "object" || operation === null || !isLimited(operation)) continue
      for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
        if (status === "401") continue
        response.headers = { ...response.headers, ...HEADER_DOCS }
        if (status === "429" && response.headers["retry-after"] !== undefined) {
          response.headers["retry-after"] = { ...response.headers["retry-after"], description: RETRY_AFTER_DOC }
        }
      }
    }
  }
  return document
}
