/**
 * The skeleton of the benchmarks' baselines: a bare `node:http` server on loopback and the port
 * `BASELINE_PORT` (0: any), answering each request, once its body is read, with what `handle`
 * resolves to (a failure is a 500 and a line on stderr), printing `baseline is listening on …` once it listens, and closing
 * itself and `onStop` on SIGTERM / SIGINT.
 *
 * With `BASELINE_HTTP=effect` the same `handle` is served through Effect's HTTP platform instead
 * (`NodeHttpServer`, `HttpRouter`, a fiber per request — what Wasl's server stands on, without
 * Wasl): the "Effect HTTP floor", which shows how much of Wasl's distance to the bare server is
 * the chosen stack's own per-request cost rather than Wasl's.
 */
import * as Http from "node:http"
import type * as Net from "node:net"
import { NodeHttpServer, NodeHttpServerRequest, NodeRuntime } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Reactivity } from "effect/reactivity"
import { intFromEnv } from "./env.ts"

export interface Reply {
  readonly status: number
  readonly body: string
}

export const notFound: Reply = { status: 404, body: "{}" }

/** The answer to a request without a valid bearer token, as Wasl's. */
export const unauthenticated: Reply = { status: 401, body: JSON.stringify({ message: "Unauthenticated." }) }

/** The answer of `GET /health/live`, as Wasl's. */
export const live: Reply = { status: 200, body: JSON.stringify({ status: "ok" }) }

/** `reply` as an Effect HTTP response. */
export const replyResponse = (reply: Reply): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(reply.body, { status: reply.status, contentType: "application/json" })

type Handle = (request: Http.IncomingMessage, body: string) => Promise<Reply>

/** The line the benchmarks wait for: the baseline listens on `port`. */
export const listening = (port: number) => console.log(JSON.stringify({ message: `baseline is listening on http://127.0.0.1:${port}` }))

/** `handle` behind Effect's HTTP platform: one catch-all route of an `HttpRouter` on `NodeHttpServer`. */
const serveWithEffectHttp = (handle: Handle, onStop: () => Promise<unknown>, port: number): void => {
  const route = HttpRouter.add("*", "*", (request: HttpServerRequest.HttpServerRequest) =>
    Effect.flatMap(request.text, (body) =>
      Effect.promise(() => handle(NodeHttpServerRequest.toIncomingMessage(request) as Http.IncomingMessage, body)).pipe(
        Effect.map(replyResponse)
      )))
  serveRouterApp(route, onStop, port)
}

/**
 * Serves an `HttpRouter` application (`app`, given `services`) on loopback and `port` through
 * `NodeHttpServer`, prints the listening line, and runs `onStop` when the process is stopped.
 */
export const serveRouterApp = (
  // What it needs beyond the router is what NodeHttpServer.layer provides (the HTTP platform).
  app: Layer.Layer<never, never, any>,
  onStop: () => Promise<unknown>,
  port: number,
  services: Layer.Layer<never> = Layer.empty
): void =>
  Effect.gen(function*() {
    const context = yield* Layer.build(
      HttpRouter.serve(app, { disableLogger: true, disableListenLog: true }).pipe(
        Layer.provideMerge(NodeHttpServer.layer(Http.createServer, { port, host: "127.0.0.1" }))
      )
    )
    const { address } = Context.get(context, HttpServer.HttpServer)
    listening(address._tag === "UnixPathAddress" ? port : address.port)
    return yield* Effect.never
  }).pipe(
    Effect.scoped,
    Effect.ensuring(Effect.promise(onStop)),
    Effect.provide(services),
    // `app` may need only what NodeHttpServer.layer provided above; its type cannot say so.
    (served) => NodeRuntime.runMain(served as Effect.Effect<never, unknown>)
  )

export const serveBaseline = (
  handle: Handle,
  onStop: () => Promise<unknown> = () => Promise.resolve()
): void => {
  const port = intFromEnv("BASELINE_PORT", 0, 0)
  if (process.env.BASELINE_HTTP === "effect") return serveWithEffectHttp(handle, onStop, port)
  const server = Http.createServer((request, response) => {
    const send = (reply: Reply) => {
      response.writeHead(reply.status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(reply.body)
      })
      response.end(reply.body)
    }
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      handle(request, Buffer.concat(chunks).toString("utf8")).then(send, (error: unknown) => {
        console.error(String(error))
        send({ status: 500, body: "{}" })
      })
    })
  })
  const stop = () => {
    server.close()
    server.closeAllConnections()
    void onStop().finally(() => process.exit(0))
  }
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
  server.listen(port, "127.0.0.1", () => {
    listening((server.address() as Net.AddressInfo).port)
  })
}

/** A `PgClient` pool on `url` for a baseline, and the function closing it. */
export const openPgClient = async (
  url: string,
  options: Omit<Partial<PgClient.PgPoolConfig>, "url"> = {}
): Promise<{ readonly sql: PgClient.PgClient; readonly close: () => Promise<void> }> => {
  const scope = Scope.makeUnsafe()
  const sql = await Effect.runPromise(
    PgClient.make({ applicationName: "wasl-bench-baseline", ...options, url: Redacted.make(url) }).pipe(
      Scope.provide(scope),
      Effect.provide(Reactivity.layer)
    )
  )
  return { sql, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
