/**
 * `apps/server`: the HTTP service alone (no worker), for scaling API replicas
 * separately against one PostgreSQL. SIGTERM/SIGINT stop it gracefully.
 */
import { Effect, Layer } from "effect"
import { DatabaseConfig } from "./config.ts"
import { HttpServerLive } from "./http-server.ts"
import { runService } from "./run-service.ts"
import { AppServicesLive } from "./services.ts"

runService(Layer.unwrap(Effect.gen(function*() {
  return HttpServerLive.pipe(Layer.provide(AppServicesLive(yield* DatabaseConfig)))
})))
