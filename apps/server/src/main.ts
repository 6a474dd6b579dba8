/**
 * `apps/server`: the HTTP service alone (no worker), for scaling API replicas
 * separately against one PostgreSQL. SIGTERM/SIGINT stop it gracefully.
 */
import { Config, Layer } from "effect"
import { HttpConfig, WaslConfig } from "./config.ts"
import { HttpServerLive } from "./http-server.ts"
import { runService } from "./run-service.ts"
import { AppServicesLive } from "./services.ts"

runService(
  Config.all({ wasl: WaslConfig, http: HttpConfig }),
  ({ http, wasl }) => HttpServerLive(http).pipe(Layer.provide(AppServicesLive(wasl)))
)
