/**
 * A host Effect HTTP service with a route of its own, Wasl's API mounted beside it, and Wasl's
 * webhook delivery worker running in the same process, on PostgreSQL.
 *
 *   DATABASE_URL=postgres://... WASL_SECRET_KEY=<64 hex> PORT=8080 node main.ts
 *
 * On an empty database it creates a first account and prints its API token.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Config, Console, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { createServer } from "node:http"
import { WaslPostgres } from "@wasl/adapters/Deployment"
import { ensureFirstAccount } from "@wasl/core/Accounts"
import { WaslRoutes, waslRouterConfig } from "@wasl/http/Routes"
import { DeliveryWorkerLive } from "@wasl/worker"

// The host's own route, served next to Wasl's `/api/...` routes.
const HostRoutes = HttpRouter.add("GET", "/hello", HttpServerResponse.text("Hello from the host service"))

// Wasl's ports on PostgreSQL: repositories, migrations (run now), keys, webhook network, mail.
const Wasl = Layer.unwrap(Effect.gen(function*() {
  const url = yield* Config.String("DATABASE_URL")
  const secretKey = yield* Config.Redacted("WASL_SECRET_KEY")
  return WaslPostgres.layer({ url, secretKey })
}))

// On an empty database: a first account, its owner token printed once.
const FirstAccount = Layer.effectDiscard(Effect.gen(function*() {
  const created = yield* ensureFirstAccount()
  if (Option.isSome(created)) yield* Console.log(`token: ${created.value.token}`)
}))

const Server = Layer.unwrap(Effect.map(Config.Port("PORT").pipe(Config.withDefault(8080)), (port) =>
  HttpRouter.serve(Layer.mergeAll(HostRoutes, WaslRoutes), { routerConfig: waslRouterConfig, disableLogger: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port })),
    Layer.tap(() => Console.log(`listening on http://localhost:${port}`))
  )))

const Main = Layer.mergeAll(Server.pipe(Layer.provide(FirstAccount)), DeliveryWorkerLive()).pipe(Layer.provide(Wasl))

NodeRuntime.runMain(Layer.launch(Main))
