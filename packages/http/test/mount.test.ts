/**
 * A host Effect HTTP app that mounts Wasl's routes beside its own, over the host's own `PgClient`
 * (`WaslPostgres.layerClient`): both answer, the host's routes keep the host's error handling
 * and not-found answers, and a client made without Wasl's value codecs is refused at start.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Logger, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WaslPostgres } from "@wasl/adapters/Deployment"
import { TestDatabase } from "@wasl/adapters/testing"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { WaslRoutes, waslRouterConfig } from "@wasl/http/Routes"
import { makeClient } from "./support/client.ts"

const HostRoutes = Layer.mergeAll(
  HttpRouter.add("GET", "/hello", HttpServerResponse.text("hello from the host")),
  HttpRouter.add("GET", "/boom", Effect.die(new Error("host defect")))
)

// Every line logged while serving: Wasl's access line is "request"; Effect's router logger, when
// left on, adds "Sent HTTP response" for the same request.
const logged: Array<string> = []
const CapturedLogs = Logger.layer([Logger.make((options) => logged.push(String(options.message)))])
const accessLines = () => logged.filter((line) => line === "request" || line.includes("HTTP response"))

describe("Wasl mounted in a host app", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let request: ReturnType<typeof makeClient>
  let token: string

  beforeAll(async () => {
    const app = HttpRouter.serve(Layer.mergeAll(HostRoutes, WaslRoutes), { routerConfig: waslRouterConfig, disableLogger: true })
    runtime = ManagedRuntime.make(
      app.pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
        Layer.provideMerge(WaslPostgres.layerClient({ secretKey: "07".repeat(32) })),
        Layer.provideMerge(TestDatabase.pglite),
        Layer.provide(CapturedLogs)
      )
    )
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    request = makeClient(`http://127.0.0.1:${address.port}`)
    token = (await runtime.runPromise(bootstrapAccount({
      account: "Host",
      email: "host-owner@example.test",
      password: "pw-owner",
      plan: "business",
      otpCredits: 0
    }))).token
  })
  afterAll(async () => {
    await runtime?.dispose()
  })

  it("serves the host's route and Wasl's API side by side", async () => {
    const hello = await request("GET", "/hello")
    expect([hello.status, hello.text]).toEqual([200, "hello from the host"])
    const created = await request("POST", "/api/deals", { token, body: { deal_name: "Mounted" } })
    expect(created.status).toBe(201)
    expect((await request("GET", "/api/deals/", { token })).body.meta.total).toBe(1)
    expect((await request("GET", "/api/me")).body).toEqual({ message: "Unauthenticated." })
  })

  it("logs one access line per request to Wasl's routes, with the router's own logger off", async () => {
    logged.length = 0
    expect((await request("GET", "/api/deals", { token })).status).toBe(200)
    expect(accessLines()).toEqual(["request"])
  })

  it("leaves the host's failures and unknown paths to the host", async () => {
    const boom = await request("GET", "/boom")
    expect(boom.status).toBe(500)
    expect(boom.text).not.toContain("Server Error.")
    const unknown = await request("GET", "/nowhere")
    expect(unknown.status).toBe(404)
    expect(unknown.text).not.toContain("Not found.")
  })

  it("refuses a PgClient made without Wasl's value codecs", async () => {
    const foreign = PgClient.layerFrom(
      Effect.flatMap(PgClient.PgClient, (client) => PgClient.make({ ...client.config, types: undefined }))
    )
    const exit = await Effect.runPromiseExit(
      Effect.scoped(Layer.build(WaslPostgres.layerClient({ secretKey: "07".repeat(32) }).pipe(
        Layer.provide(foreign),
        Layer.provide(TestDatabase.pglite)
      )))
    )
    expect(String(exit)).toContain("waslPgClientOptions")
  })
})
