/**
 * The worker's listener answers `GET /metrics` under the server's rules, from the settings it is
 * given: a scrape without the metrics token counts against the caller limit per client address
 * (429 with `Retry-After` past it); one with the token is not counted.
 */
import { Duration, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { createServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WaslMemory } from "@wasl/adapters/memory"
import { WorkerLoops } from "@wasl/worker"
import { WorkerHealthServerLive } from "../src/health-server.ts"

const TOKEN = "worker-metrics-token"
const OFF = { limit: 0, window: Duration.minutes(1) }

/** A port free on the loopback interface now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
    })
  })

describe("the worker's GET /metrics", () => {
  let url: string
  let runtime: ManagedRuntime.ManagedRuntime<never, unknown>
  beforeAll(async () => {
    const port = await freePort()
    url = `http://127.0.0.1:${port}/metrics`
    const listener = WorkerHealthServerLive({ host: "127.0.0.1", port }, {
      metricsToken: Redacted.make(TOKEN),
      rateLimits: { caller: { limit: 2, window: Duration.minutes(1) }, login: OFF, otpVerify: OFF },
      trustedProxies: []
    }).pipe(
      Layer.provide(WorkerLoops.layer()),
      Layer.provide(WaslMemory.layer({ secretKey: new Uint8Array(32).fill(5) }))
    )
    runtime = ManagedRuntime.make(listener)
    await runtime.runPromise(Effect.void)
  })
  afterAll(() => runtime.dispose())

  it("counts scrapes without the token against the caller limit, and not those with it", async () => {
    for (let i = 0; i < 4; i++) {
      const scraped = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(scraped.status).toBe(200)
      expect(await scraped.text()).toContain("wasl_deliveries_due")
    }
    for (const remaining of ["1", "0"]) {
      const refused = await fetch(url)
      expect(refused.status).toBe(401)
      expect(refused.headers.get("ratelimit-remaining")).toBe(remaining)
    }
    const tooMany = await fetch(url)
    expect(tooMany.status).toBe(429)
    expect(Number(tooMany.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect(await tooMany.json()).toEqual({ message: "Too Many Attempts." })
  })
})
