/**
 * The readiness of a process that runs the worker: the database answers and is migrated (the
 * `Readiness` port) and every loop of the worker started, runs and has beaten recently
 * (`WorkerLoops`). Which loop is behind goes to the log only. The worker's own listener answers
 * with it; `WorkerReadiness` gives it to a server running the worker in its process (`npm start`),
 * so that the server's `GET /health/ready` covers the loops too.
 */
import { Readiness } from "@wasl/core/Deployment"
import { Effect, Layer } from "effect"
import { WorkerLoops } from "./worker-loops.ts"

/** Ready: the database answers and is migrated, and every loop started, runs and beats. */
export const workerReady: Effect.Effect<boolean, never, WorkerLoops | Readiness> = Effect.gen(function*() {
  const loops = yield* WorkerLoops
  const unhealthy = yield* loops.unhealthy
  if (!(yield* loops.started)) {
    yield* Effect.logWarning("worker not ready: its loops have not started")
    return false
  }
  if (unhealthy.length > 0) {
    yield* Effect.logWarning("worker not ready: loops stopped or stuck").pipe(Effect.annotateLogs({ loops: unhealthy }))
    return false
  }
  return yield* (yield* Readiness).check
})

/** A `Readiness` that also requires the worker's loops healthy, over the store's own `Readiness`. */
export const WorkerReadiness: Layer.Layer<Readiness, never, Readiness | WorkerLoops> = Layer.effect(
  Readiness,
  Effect.gen(function*() {
    const loops = yield* WorkerLoops
    const store = yield* Readiness
    return Readiness.of({
      check: workerReady.pipe(Effect.provideService(WorkerLoops, loops), Effect.provideService(Readiness, store))
    })
  })
)
