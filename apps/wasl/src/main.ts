/**
 * `npm start`: the HTTP server (and, as they arrive, the delivery workers) in
 * one process, on the embedded database unless DATABASE_URL is set. Migrates
 * on start, creates the first account on an empty database, and stops
 * cleanly on SIGTERM/SIGINT.
 */
import { Effect, Layer } from "effect"
import { AppServicesLive, DatabaseConfig, HttpServerLive, runService } from "@wasl/app-server"
import { FirstRunLive } from "./first-run.ts"

runService(Layer.unwrap(Effect.gen(function*() {
  // The first-run account exists before the server listens.
  return HttpServerLive.pipe(Layer.provide(FirstRunLive), Layer.provide(AppServicesLive(yield* DatabaseConfig)))
})))
