/**
 * `npm start`: the HTTP server and the delivery worker in
 * one process, on the embedded database unless DATABASE_URL is set. Migrates
 * on start, creates the first account on an empty database, and stops
 * cleanly on SIGTERM/SIGINT.
 */
import { Config, Layer } from "effect"
import { AppServicesLive, HttpConfig, HttpServerLive, runService, WaslConfig } from "@wasl/app-server"
import { DeliveryWorkerLive, WorkerLoops, WorkerReadiness } from "@wasl/worker"
import { FirstRunLive } from "./first-run.ts"

// The first-run account exists before the server listens. The delivery worker shares the
// server's services (one database pool, one HTTPS agent), and its loops beat into the WorkerLoops
// that the server's readiness probe reads: GET /health/ready covers the worker too.
runService(
  Config.all({ wasl: WaslConfig, http: HttpConfig }),
  ({ http, wasl }) =>
    Layer.mergeAll(
      HttpServerLive(http).pipe(Layer.provide(FirstRunLive), Layer.provide(WorkerReadiness)),
      DeliveryWorkerLive({
      media: { maxBytes: wasl.messaging?.mediaMaxBytes },
      campaigns: { sendRate: wasl.messaging?.whatsappSendRate }
    })
    ).pipe(
      Layer.provide(WorkerLoops.layer()),
      Layer.provide(AppServicesLive(wasl))
    )
)
