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
 */
import { Effect, Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { WaslApi } from "./api.ts"

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
    transformClient: token === undefined ? undefined : HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
  })
}
