/**
 * `npm start`: the HTTP server and the delivery worker in
 * one process, on the embedded database unless DATABASE_URL is set. Migrates
 * on start, creates the first account on an empty database, and stops
 * cleanly on SIGTERM/SIGINT.
 */
import { Effect, Layer } from "effect"
import { AppServicesLive, DatabaseConfig, HttpServerLive, runService } from "@wasl/app-server"
import { DeliveryWorkerLive } from "@wasl/app-worker"
import { FirstRunLive } from "./first-run.ts"

runService(Layer.unwrap(Effect.gen(function*() {
  // The first-run account exists before the server listens. The delivery worker shares the
  // server's services (one database pool, one HTTPS agent).
  return Layer.mergeAll(HttpServerLive.pipe(Layer.provide(FirstRunLive)), DeliveryWorkerLive()).pipe(
    Layer.provide(AppServicesLive(yield* DatabaseConfig))
  )
})))
