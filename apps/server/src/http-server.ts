/** The HTTP server of the settings, over the given services: the API and the web console at /app. */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { RateLimitPolicy } from "@wasl/core"
import { MetricsToken, serveWaslWith, StreamsPerUser, TrustedProxies } from "@wasl/http"
import type { HttpConfig } from "./config.ts"
import { DashboardRoute } from "./dashboard-route.ts"
import { createWaslServer } from "./node-server.ts"

export const HttpServerLive = ({ metricsToken, rateLimits, requestTimeout, server: { host, port }, streamsPerUser, trustedProxies }: HttpConfig) =>
  serveWaslWith(DashboardRoute()).pipe(
    Layer.provide(NodeHttpServer.layer(() => createWaslServer({ request: requestTimeout }), { port, host })),
    Layer.provide(Layer.succeed(RateLimitPolicy, rateLimits)),
    Layer.provide(Layer.succeed(TrustedProxies, trustedProxies)),
    Layer.provide(Layer.succeed(StreamsPerUser, streamsPerUser)),
    Layer.provide(Layer.succeed(MetricsToken, metricsToken)),
    Layer.tap(() => Effect.logInfo(`Wasl is listening on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`))
  )
