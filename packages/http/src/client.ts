/**
 * A typed client of a running Wasl, made from the same contract the server serves: every
 * endpoint is a method (`client.records.create(...)`, `client.me.show()`), its payload and
 * answer typed and decoded, its declared errors (`Validation422`, `NotFound404`, ...) typed failures.
 *
 * ```ts
 * import { Effect } from "effect"
 * import { FetchHttpClient } from "effect/http"
 * import { makeWaslClient } from "@wasl/http/client"
 *
 * const program = Effect.gen(function*() {
 *   const wasl = yield* makeWaslClient({ baseUrl: "http://localhost:3000", token: process.env.WASL_TOKEN })
 *   const me = yield* wasl.me.show()
 *   console.log(me.email)
 * })
 * Effect.runPromise(program.pipe(Effect.provide(FetchHttpClient.layer)))
 * ```
 *
 * A write made safe to retry carries an `Idempotency-Key` (`withIdempotencyKey`): retried with the
 * same key, it is answered as the first time and changes nothing more.
 */
import { Context, Effect, Function, Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { WaslApi } from "./api.ts"
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency-openapi.ts"

/** Where the client connects, and as whom. */
export interface WaslClientOptions {
  /** The server's origin, e.g. `http://localhost:3000` (the paths carry their `/api` prefix). */
  readonly baseUrl: string | URL
  /** An API token (`<id>|<secret>`), sent as `Authorization: Bearer`; without it only public endpoints answer. */
  readonly token?: string | Redacted.Redacted<string> | undefined
}

/**
 * The client: one method per endpoint, grouped as the contract (`WaslApi` of `@wasl/http`) groups
 * them. Each method takes the endpoint's `params` and `payload`, answers its decoded success, and
 * fails with its declared errors (`Validation422`, `NotFound404`, ...) or a transport or decoding
 * error of the `HttpClient`.
 */
export type WaslClient = HttpApiClient.ForApi<typeof WaslApi>

/**
 * Makes a client over the `HttpClient` provided (e.g. `FetchHttpClient.layer`). With a `token`,
 * every request carries it as `Authorization: Bearer`.
 */
export const makeWaslClient = (options: WaslClientOptions): Effect.Effect<WaslClient, never, HttpClient.HttpClient> => {
  const token = options.token === undefined ? undefined : Redacted.isRedacted(options.token) ? Redacted.value(options.token) : options.token
  return HttpApiClient.make(WaslApi, {
    baseUrl: options.baseUrl,
    transformClient: (client) =>
      (token === undefined ? client : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(token))).pipe(
        HttpClient.mapRequestEffect(withCurrentKey)
      )
  })
}

/**
 * The `Idempotency-Key` the client's requests carry: none by default; `withIdempotencyKey` sets
 * one for the requests of an effect.
 */
export const CurrentIdempotencyKey: Context.Reference<string | undefined> = Context.Reference<string | undefined>(
  "@wasl/http/client/CurrentIdempotencyKey",
  { defaultValue: () => undefined }
)

/** The request with the current key, read in the calling fiber (where `withIdempotencyKey` set it). */
const withCurrentKey = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<HttpClientRequest.HttpClientRequest> =>
  Effect.map(CurrentIdempotencyKey, (key) =>
    key === undefined ? request : HttpClientRequest.setHeader(request, IDEMPOTENCY_KEY_HEADER, key))

/**
 * Sends the client's requests made by `self` with the `Idempotency-Key` `key` (1 to 255 visible
 * ASCII characters; a UUID, say). A state-changing request retried with the same key within 24
 * hours is answered with its first (successful) answer and changes nothing more: no second
 * record, event, message or charge. Set the key outside the retry, so each attempt carries it:
 *
 * ```ts
 * import { Effect, Schedule } from "effect"
 * import { makeWaslClient, withIdempotencyKey } from "@wasl/http/client"
 *
 * const create = Effect.gen(function*() {
 *   const wasl = yield* makeWaslClient({ baseUrl: "http://localhost:3000", token: process.env.WASL_TOKEN })
 *   return yield* wasl.records.create({ params: { kind: "deal" }, payload: { deal_name: "Renewal" } }).pipe(
 *     Effect.retry(Schedule.recurs(3)),
 *     withIdempotencyKey(crypto.randomUUID())
 *   )
 * })
 * ```
 */
export const withIdempotencyKey: {
  (key: string): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, key: string): Effect.Effect<A, E, R>
} = Function.dual(
  2,
  <A, E, R>(self: Effect.Effect<A, E, R>, key: string): Effect.Effect<A, E, R> =>
    Effect.provideService(self, CurrentIdempotencyKey, key)
)
