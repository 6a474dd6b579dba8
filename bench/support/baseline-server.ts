/**
 * The skeleton of the benchmarks' baselines: a bare `node:http` server on loopback and the port
 * `BASELINE_PORT` (0: any), answering each request, once its body is read, with what `handle`
 * resolves to (a failure is a 500 and a line on stderr), printing `baseline is listening on …` once it listens, and closing
 * itself and `onStop` on SIGTERM / SIGINT.
 */
import * as Http from "node:http"
import type * as Net from "node:net"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import { intFromEnv } from "./env.ts"

export interface Reply {
  readonly status: number
  readonly body: string
}

export const notFound: Reply = { status: 404, body: "{}" }

export const serveBaseline = (
  handle: (request: Http.IncomingMessage, body: string) => Promise<Reply>,
  onStop: () => Promise<unknown> = () => Promise.resolve()
): void => {
  const port = intFromEnv("BASELINE_PORT", 0, 0)
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
    const address = server.address() as Net.AddressInfo
    console.log(JSON.stringify({ message: `baseline is listening on http://127.0.0.1:${address.port}` }))
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
