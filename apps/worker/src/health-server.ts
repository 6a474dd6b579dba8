/**
 * The worker's own listener, on `WASL_WORKER_HEALTH_PORT` when it is set (off by default: a
 * worker needs no port to do its work): `GET /health/live`, `GET /health/ready` (the database,
 * and every loop of the worker running and making progress) and `GET /metrics` (the worker's
 * attempts and first-attempt latency, the backlog; behind `WASL_METRICS_TOKEN` when set).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { Redacted } from "effect"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { createServer } from "node:http"
import type { WorkerHealthConfig } from "@wasl/app-server"
import { MetricsRoute, MetricsToken } from "@wasl/http"
import { WorkerHealthRoutes } from "@wasl/worker"

export const WorkerHealthServerLive = ({ host, port }: WorkerHealthConfig, metricsToken: Redacted.Redacted<string> | undefined) =>
  port === undefined
    ? Layer.empty
    : HttpRouter.serve(Layer.mergeAll(WorkerHealthRoutes, MetricsRoute), { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provide(NodeHttpServer.layer(createServer, { port, host })),
      Layer.provide(Layer.succeed(MetricsToken, metricsToken)),
      Layer.tap(() => Effect.logInfo(`Wasl worker health and metrics on port ${port}`))
    )
