/**
 * `apps/worker`: the delivery worker alone (no API server), for running workers separately from
 * the API servers against one PostgreSQL; any number of them share the work. Migrates on start
 * like the server. With `WASL_WORKER_HEALTH_PORT` it also answers its probes and metrics on that
 * port (health-server.ts). SIGTERM/SIGINT stop it gracefully: attempts in flight are released for
 * another worker, nothing is lost.
 */
import { Config, Layer } from "effect"
import { AppServicesLive, MetricsAccessConfig, runService, WaslConfig, WorkerHealthConfig } from "@wasl/app-server"
import { DeliveryWorkerLive, WorkerLoops } from "@wasl/worker"
import { WorkerHealthServerLive } from "./health-server.ts"

// One WorkerLoops: the worker's loops beat into it, and the listener reads it.
runService(
  Config.all({ wasl: WaslConfig, health: WorkerHealthConfig, metrics: MetricsAccessConfig }),
  ({ health, metrics, wasl }) =>
    Layer.mergeAll(DeliveryWorkerLive({
      media: { maxBytes: wasl.messaging?.mediaMaxBytes },
      campaigns: { sendRate: wasl.messaging?.whatsappSendRate }
    }), WorkerHealthServerLive(health, metrics)).pipe(
      Layer.provide(WorkerLoops.layer()),
      Layer.provide(AppServicesLive(wasl))
    )
)
