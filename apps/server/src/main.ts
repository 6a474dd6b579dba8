/**
 * `apps/server`: the HTTP service alone (no worker), for scaling API replicas
 * separately against one PostgreSQL. SIGTERM/SIGINT stop it gracefully.
 */
import { Layer } from "effect"
import { HttpServerLive } from "./http-server.ts"
import { runService } from "./run-service.ts"
import { AppServicesLive } from "./services.ts"

runService(HttpServerLive.pipe(Layer.provide(AppServicesLive)))
