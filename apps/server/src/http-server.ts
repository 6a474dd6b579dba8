/** The HTTP server on the configured port, over the given services. */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { serveWasl } from "@wasl/http"
import { ServerConfig } from "./config.ts"

export const HttpServerLive = Layer.unwrap(Effect.gen(function*() {
  const { host, port } = yield* ServerConfig
  return serveWasl.pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port, host })),
    Layer.tap(() => Effect.logInfo(`Wasl is listening on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`))
  )
}))
