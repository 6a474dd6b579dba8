/** The HTTP server of the settings, over the given services: the API and the web console at /app. */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { RateLimitPolicy } from "@wasl/core/Auth"
import { WhatsAppWebhookSettings } from "@wasl/core/WhatsApp"
import { MetricsToken } from "@wasl/http/Metrics"
import { serveWaslWith, StreamsPerUser, TrustedProxies } from "@wasl/http/Routes"
import type { HttpConfig, MetricsAccessConfig } from "./config.ts"
import { DashboardRoute } from "./dashboard-route.ts"
import { createWaslServer } from "./node-server.ts"

/**
 * The rate limits, the trusted proxies and the metrics token of the settings, as the references
 * Wasl's routes read: the server's API and `/metrics`, and the worker's `/metrics`.
 */
export const AccessSettingsLive = ({ metricsToken, rateLimits, trustedProxies }: MetricsAccessConfig) =>
  Layer.mergeAll(
    Layer.succeed(RateLimitPolicy, rateLimits),
    Layer.succeed(TrustedProxies, trustedProxies),
    Layer.succeed(MetricsToken, metricsToken)
  )

export const HttpServerLive = ({ requestTimeout, server: { host, port }, streamsPerUser, whatsappWebhook, ...access }: HttpConfig) =>
  serveWaslWith(DashboardRoute()).pipe(
    Layer.provide(NodeHttpServer.layer(() => createWaslServer({ request: requestTimeout }), { port, host })),
    Layer.provide(AccessSettingsLive(access)),
    Layer.provide(Layer.succeed(StreamsPerUser, streamsPerUser)),
    Layer.provide(Layer.succeed(WhatsAppWebhookSettings, whatsappWebhook)),
    Layer.tap(() => Effect.logInfo(`Wasl is listening on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`))
  )
