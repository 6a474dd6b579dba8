/**
 * `apps/server`: the HTTP service alone (no worker), for scaling API replicas
 * separately against one PostgreSQL. SIGTERM/SIGINT stop it gracefully.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { DatabaseConfig } from "./config.ts"
import { HttpServerLive } from "./http-server.ts"
import { AppServicesLive } from "./services.ts"
import { LoggingLive } from "./logging.ts"

const Main = Layer.unwrap(Effect.gen(function*() {
  return HttpServerLive.pipe(Layer.provide(AppServicesLive(yield* DatabaseConfig)))
}))

NodeRuntime.runMain(Layer.launch(Main.pipe(Layer.provide(LoggingLive))), { disableErrorReporting: false })
