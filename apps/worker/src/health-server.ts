/**
 * The worker's own listener, on `WASL_WORKER_HEALTH_PORT` when it is set (off by default: a
 * worker needs no port to do its work): `GET /health/live`, `GET /health/ready` (the database,
 * and every loop of the worker running and making progress) and `GET /metrics` (the worker's
 * attempts and first-attempt latency, the backlog), under the server's rules: behind
 * `WASL_METRICS_TOKEN` when set, and a scrape without it counted against `WASL_RATE_LIMIT` per
 * client address (the one a proxy of `WASL_TRUST_PROXY` forwards).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { createServer } from "node:http"
import { AccessSettingsLive, type MetricsAccessConfig, type WorkerHealthConfig } from "@wasl/app-server"
import { MetricsRoute } from "@wasl/http/Metrics"
import { WorkerHealthRoutes } from "@wasl/worker"

export const WorkerHealthServerLive = ({ host, port }: WorkerHealthConfig, access: MetricsAccessConfig) =>
  port === undefined
    ? Layer.empty
    : HttpRouter.serve(Layer.mergeAll(WorkerHealthRoutes, MetricsRoute), { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provide(NodeHttpServer.layer(createServer, { port, host })),
      Layer.provide(AccessSettingsLive(access)),
      Layer.tap(() => Effect.logInfo(`Wasl worker health and metrics on port ${port}`))
    )
