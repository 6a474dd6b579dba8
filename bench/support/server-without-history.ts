/**
 * `apps/server` with the record writes' property history off (`PropertyHistoryKept` false): the
 * writes benchmark's measure of what keeping the history costs a write. Nothing else differs from
 * apps/server/src/main.ts.
 */
import { PropertyHistoryKept } from "@wasl/core/Records"
import { Config, Layer } from "effect"
import { HttpConfig, WaslConfig } from "../../apps/server/src/config.ts"
import { HttpServerLive } from "../../apps/server/src/http-server.ts"
import { runService } from "../../apps/server/src/run-service.ts"
import { AppServicesLive } from "../../apps/server/src/services.ts"

runService(
  Config.all({ wasl: WaslConfig, http: HttpConfig }),
  ({ http, wasl }) =>
    HttpServerLive(http).pipe(Layer.provide(AppServicesLive(wasl)), Layer.provide(Layer.succeed(PropertyHistoryKept, false)))
)
