/**
 * The `Idempotency-Key` header: a state-changing request (POST, PUT, PATCH, DELETE) of an
 * authenticated caller that carries one is run once; the same request again with the same key,
 * within 24 hours, is answered with the first answer (its status and body, and the header
 * `Idempotent-Replayed: true`) and changes nothing. The same key with another request (method,
 * path or body) is a 422; a request with a key whose first request is still running is a 409.
 * Keys belong to the caller: one API token, or one user's sessions, in one account.
 *
 * A replay is answered only to a caller who may still make the request: it is authenticated like
 * any request (a revoked token is a 401), then the checks the first request made of its caller
 * (its permissions, its token's abilities, token-only, the abilities it gave a new token: core's
 * `CallerCheck`, kept with the answer) are asked again, and the first that fails is answered as a
 * fresh request would be (a 403 with its message). The key stays: once the caller may again, the
 * replay answers the kept answer.
 *
 * What is kept: successful answers (2xx) only. An error answer is not kept, so a retry with the
 * same key runs again and may succeed — a 429 or 503 once the wait is over, a 422 once the body is
 * fixed. Stripe keeps most 4xx answers; Wasl does not, because an error answer stands for no
 * change a retry could repeat: the writes a failed request does make stay exactly as without a
 * key (a wrong OTP code still counts as an attempt, and a retry is another attempt).
 *
 * How it commits: for most endpoints, the kept answer is written in the transaction of the change
 * (the use-case's transaction runs inside it), so they commit together: a client whose connection
 * dropped after the commit replays the answer, one whose request never committed runs it again.
 * The endpoints that call another service between short transactions (a send through the
 * messaging provider, a webhook validation) claim the key first and keep the answer after (see
 * `IdempotencyMode` in core).
 *
 * Answers are kept sealed (`SecretBox`): a token creation's answer holds the token's secret.
 * Without the header, nothing of this runs: no statement, no hashing.
 */
import { Effect, Option } from "effect"
import { Cookies, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type Principal, recheckCaller, type SecretBox, withCallerChecks } from "@wasl/core/Auth"
import {
  type IdempotencyClaim,
  type IdempotencyMode,
  type IdempotencyStore,
  type KeptAnswer
} from "@wasl/core/Idempotency"
import { pathOf } from "./boundary.ts"
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, takesIdempotencyKey } from "./idempotency-openapi.ts"

/** The 422 message of a key that is not 1 to 255 visible ASCII characters. */
export const INVALID_IDEMPOTENCY_KEY = "The Idempotency-Key header must be 1 to 255 visible ASCII characters."
/** The 422 message of a key already used with another request. */
export const IDEMPOTENCY_KEY_REUSED = "This Idempotency-Key was already used with another request."
/** The 409 message of a key whose first request is still running. */
export const IDEMPOTENCY_KEY_IN_FLIGHT = "A request with this Idempotency-Key is still in progress. Retry later."
/**
 * The 409 message of a kept answer that can no longer be replayed: its seal no longer opens (the
 * sealing key changed), or it was kept without the checks of its caller (before they were kept).
 */
export const IDEMPOTENCY_ANSWER_UNREADABLE = "The answer kept for this Idempotency-Key can no longer be replayed."

const KEY = /^[\x21-\x7e]{1,255}$/
/** Endpoints that call another service between short transactions: their work runs outside the key's transaction. */
const OUTSIDE = [/^\/api\/broadcasts\/[^/]+\/send(-otp)?$/, /^\/api\/account\/webhooks\/[^/]+\/validate$/]

const json = (status: number, body: unknown) => HttpServerResponse.jsonUnsafe(body, { status })

const keyError = (message: string) => json(422, { message, errors: { [IDEMPOTENCY_KEY_HEADER]: [message] } })

/** The route's path: without the query, and without the trailing slash the router ignores. */
const routePathOf = (url: string) => {
  const path = pathOf(url)
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
}

/** A JSON text with its object keys sorted, so the same body however spelled has one fingerprint. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
    return `{${entries.join(",")}}`
  }
  return JSON.stringify(value)
}

const canonicalBody = (text: string): string => {
  if (text.trim() === "") return ""
  try {
    return canonical(JSON.parse(text))
  } catch {
    return text
  }
}

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("")

/**
 * SHA-256 of method, path with query, and body (JSON in canonical form). A multipart body is
 * streamed to the endpoint and cannot be read twice, so it is left out: a multipart request is
 * told apart by method and path only.
 */
const fingerprintOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const multipart = /^multipart\//i.test(request.headers["content-type"] ?? "")
    const body = multipart ? "" : canonicalBody(yield* Effect.orElseSucceed(request.text, () => ""))
    const q = request.url.indexOf("?")
    const target = routePathOf(request.url) + (q === -1 ? "" : request.url.slice(q))
    const digest = yield* Effect.promise(() =>
      globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${request.method} ${target}\n${body}`))
    )
    return hex(digest)
  })

/** The answer to keep: a 2xx with a buffered body and no cookies; anything else is not kept. */
const answerOf = (
  response: HttpServerResponse.HttpServerResponse
): Omit<KeptAnswer, "body" | "callerChecks"> & { text: string } | undefined => {
  if (response.status < 200 || response.status > 299 || !Cookies.isEmpty(response.cookies)) return undefined
  const body = response.body
  if (body._tag === "Empty") return { status: response.status, contentType: "", text: "" }
  if (body._tag === "Uint8Array") {
    return { status: response.status, contentType: body.contentType, text: new TextDecoder().decode(body.body) }
  }
  return undefined
}

const replay = (box: SecretBox["Service"], answer: KeptAnswer) =>
  Effect.map(box.open(answer.body), (opened) =>
    Option.match(opened, {
      onNone: () => json(409, { message: IDEMPOTENCY_ANSWER_UNREADABLE }),
      onSome: (text) =>
        HttpServerResponse.setHeader(
          answer.contentType === ""
            ? HttpServerResponse.empty({ status: answer.status })
            : HttpServerResponse.text(text, { status: answer.status, contentType: answer.contentType }),
          IDEMPOTENT_REPLAYED_HEADER,
          "true"
        )
    }))

/** The caller a key belongs to: one API token, or one user's sessions. */
const principalOf = (principal: Principal) =>
  principal.tokenId !== null ? `token:${principal.tokenId}` : `user:${principal.userId}`

/** What `idempotent` runs on: the key store and the box that seals kept answers. */
export interface IdempotencyServices {
  /** Where keys and their answers are kept. */
  readonly store: IdempotencyStore["Service"]
  /** Seals kept answers, opens them to replay. */
  readonly box: SecretBox["Service"]
}

/**
 * Runs `handler` (an authenticated endpoint's answer) under the request's `Idempotency-Key`, if it
 * carries one and changes state; otherwise runs it as it is.
 */
export const idempotent = <E, R>(
  services: IdempotencyServices,
  principal: Principal,
  handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const key = request.headers["idempotency-key"]
    if (key === undefined) return yield* handler
    const path = routePathOf(request.url)
    if (!takesIdempotencyKey(request.method, path)) return yield* handler
    if (!KEY.test(key)) return keyError(INVALID_IDEMPOTENCY_KEY)
    const claim: IdempotencyClaim = {
      accountId: principal.accountId,
      principal: principalOf(principal),
      key,
      fingerprint: yield* fingerprintOf(request)
    }
    const mode: IdempotencyMode = OUTSIDE.some((route) => route.test(path)) ? "outside" : "transaction"
    const work = Effect.gen(function*() {
      const [response, callerChecks] = yield* withCallerChecks(handler)
      const answer = answerOf(response)
      if (answer === undefined) return { value: response, keep: undefined }
      const { text, ...rest } = answer
      return { value: response, keep: { ...rest, body: yield* services.box.seal(text), callerChecks } }
    })
    const outcome = yield* services.store.run(claim, mode, work)
    switch (outcome._tag) {
      case "Ran":
        return outcome.value
      case "Replayed": {
        const { callerChecks } = outcome.answer
        if (callerChecks === null) return json(409, { message: IDEMPOTENCY_ANSWER_UNREADABLE })
        return yield* recheckCaller(principal, callerChecks).pipe(
          Effect.matchEffect({
            // The body of a 403 of the endpoint itself: its message.
            onFailure: (refused) => Effect.succeed(json(403, { message: refused.message })),
            onSuccess: () => replay(services.box, outcome.answer)
          })
        )
      }
      case "InFlight":
        return json(409, { message: IDEMPOTENCY_KEY_IN_FLIGHT })
      case "Mismatch":
        return keyError(IDEMPOTENCY_KEY_REUSED)
    }
  })
