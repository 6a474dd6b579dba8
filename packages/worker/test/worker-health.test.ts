/**
 * The worker's probes over a real socket: ready while its loops run and beat and the database is
 * ready; 503 once a loop stopped, once a loop is stuck past its allowance, and when the database
 * is not ready; live answers all along. On the all-memory ports (the database side is the
 * Readiness port, tested on PGlite and PostgreSQL with the server's probes).
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Readiness } from "@wasl/core/Deployment"
import { Retention } from "@wasl/core/Retention"
import { WaslMemory } from "@wasl/adapters/memory"
import { Duration, Effect, Layer, Logger, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { createServer } from "node:http"
import { afterEach, describe, expect, it } from "vitest"
import { DeliveryWorkerLive, WorkerHealthRoutes, WorkerLoops, WorkerReadiness } from "../src/index.ts"

interface Probe {
  readonly status: (path: string) => Promise<{ readonly status: number; readonly body: unknown }>
  readonly logs: ReadonlyArray<string>
  readonly close: () => Promise<void>
}

/** A worker with its health listener on a loopback port, over memory ports with `overrides` on top. */
const startWorker = async (overrides: Layer.Layer<never> | Layer.Layer<Retention> | Layer.Layer<Readiness>): Promise<Probe> => {
  const logs: Array<string> = []
  const services = Layer.merge(WaslMemory.layer({ secretKey: new Uint8Array(32).fill(4) }), overrides)
  const app = Layer.mergeAll(
    DeliveryWorkerLive({ pollInterval: Duration.millis(50), pruneInterval: Duration.millis(50), otpSweepInterval: Duration.millis(50) }),
    HttpRouter.serve(WorkerHealthRoutes, { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
    )
  ).pipe(
    Layer.provide(WorkerLoops.layer({ stallAfter: Duration.millis(400) })),
    Layer.provide(services),
    Layer.provide(Logger.layer([Logger.map(Logger.formatJson, (line) => void logs.push(line))]))
  )
  const runtime = ManagedRuntime.make(app)
  const address = await runtime.runPromise(Effect.gen(function*() {
    return (yield* HttpServer.HttpServer).address
  }))
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  return {
    status: async (path) => {
      const response = await fetch(`http://127.0.0.1:${address.port}${path}`)
      return { status: response.status, body: await response.json() }
    },
    logs,
    close: () => runtime.dispose()
  }
}

/** Asks `path` until it answers `status` (the loops start and stop asynchronously). */
const eventually = async (probe: Probe, path: string, status: number) => {
  const deadline = Date.now() + 5000
  let last = await probe.status(path)
  while (last.status !== status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    last = await probe.status(path)
  }
  return last
}

const OK = { status: "ok" }
const UNAVAILABLE = { status: "unavailable" }

describe("worker health", () => {
  let probe: Probe | undefined
  afterEach(async () => {
    await probe?.close()
    probe = undefined
  })

  it("is ready while every loop runs and beats, and stays so", async () => {
    probe = await startWorker(Layer.empty)
    expect(await eventually(probe, "/health/ready", 200)).toEqual({ status: 200, body: OK })
    // Longer than the allowance of every loop: idle loops still come round.
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(await probe.status("/health/ready")).toEqual({ status: 200, body: OK })
    expect(await probe.status("/health/live")).toEqual({ status: 200, body: OK })
  })

  it("answers 503 once a loop has stopped, and says which in the log only", async () => {
    // Pruning interrupted from inside: the loop ends, as any loop whose fiber is interrupted.
    probe = await startWorker(Layer.succeed(Retention, Retention.of({ pruneBatch: () => Effect.interrupt })))
    expect(await eventually(probe, "/health/ready", 503)).toEqual({ status: 503, body: UNAVAILABLE })
    expect(await probe.status("/health/live")).toEqual({ status: 200, body: OK })
    expect(probe.logs.some((line) => line.includes("loops stopped or stuck") && line.includes("pruning"))).toBe(true)
  })

  it("answers 503 once a loop is stuck past its allowance", async () => {
    probe = await startWorker(Layer.succeed(Retention, Retention.of({ pruneBatch: () => Effect.never })))
    const started = Date.now()
    expect(await eventually(probe, "/health/ready", 503)).toEqual({ status: 503, body: UNAVAILABLE })
    // Not before the pruning interval and the slack have passed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400)
  })

  it("answers 503 when the database is not ready", async () => {
    probe = await startWorker(Layer.succeed(Readiness, Readiness.of({ check: Effect.succeed(false) })))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await probe.status("/health/ready")).toEqual({ status: 503, body: UNAVAILABLE })
    expect(await probe.status("/health/live")).toEqual({ status: 200, body: OK })
  })

  it("gives a server running the worker in its process (npm start) the loops in its readiness", async () => {
    // Composed as apps/wasl composes it: the server's layer gets WorkerReadiness over the store's
    // Readiness, the worker and the server share one WorkerLoops.
    const readinessOf = (retention: Layer.Layer<never> | Layer.Layer<Retention>) => {
      let check: Effect.Effect<boolean> = Effect.die("the server layer was not built")
      const server = Layer.effectDiscard(Effect.gen(function*() {
        check = (yield* Readiness).check
      }))
      const runtime = ManagedRuntime.make(
        Layer.mergeAll(
          server.pipe(Layer.provide(WorkerReadiness)),
          DeliveryWorkerLive({ pollInterval: Duration.millis(50), pruneInterval: Duration.millis(50), otpSweepInterval: Duration.millis(50) })
        ).pipe(
          Layer.provide(WorkerLoops.layer({ stallAfter: Duration.millis(400) })),
          Layer.provide(Layer.merge(WaslMemory.layer({ secretKey: new Uint8Array(32).fill(4) }), retention)),
          Layer.provide(Logger.layer([]))
        )
      )
      return { ready: () => runtime.runPromise(Effect.suspend(() => check)), close: () => runtime.dispose() }
    }
    const until = async (ready: () => Promise<boolean>, wanted: boolean) => {
      const deadline = Date.now() + 5000
      while ((await ready()) !== wanted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
      return ready()
    }
    const healthy = readinessOf(Layer.empty)
    try {
      expect(await until(healthy.ready, true)).toBe(true)
    } finally {
      await healthy.close()
    }
    const stopped = readinessOf(Layer.succeed(Retention, Retention.of({ pruneBatch: () => Effect.interrupt })))
    try {
      // The store is ready and the other loops beat: only the ended pruning loop makes it unready.
      expect(await until(stopped.ready, false)).toBe(false)
    } finally {
      await stopped.close()
    }
  })
})
