/**
 * The worker's probes, for a small listener of its own (the worker serves no API): `GET
 * /health/live` answers while the process does; `GET /health/ready` when the database answers and
 * is migrated (the `Readiness` port) and every loop of the worker runs and has made progress
 * recently (`WorkerLoops`). The bodies are the API's: `{"status":"ok"}` or, with 503,
 * `{"status":"unavailable"}`; which loop or why goes to the log only.
 */
import { Readiness } from "@wasl/core/Deployment"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { WorkerLoops } from "./worker-loops.ts"
import { workerReady } from "./worker-readiness.ts"

const answer = (ready: boolean) =>
  HttpServerResponse.jsonUnsafe(ready ? { status: "ok" } : { status: "unavailable" }, {
    status: ready ? 200 : 503,
    headers: { "cache-control": "no-store" }
  })

/** `GET /health/live` and `GET /health/ready` of a worker, on the `HttpRouter` of its listener. */
export const WorkerHealthRoutes: Layer.Layer<never, never, HttpRouter.HttpRouter | WorkerLoops | Readiness> = Layer
  .unwrap(Effect.gen(function*() {
    const loops = yield* WorkerLoops
    const readiness = yield* Readiness
    const ready = workerReady.pipe(
      Effect.provideService(WorkerLoops, loops),
      Effect.provideService(Readiness, readiness),
      Effect.map(answer)
    )
    return Layer.mergeAll(
      HttpRouter.add("GET", "/health/live", Effect.succeed(answer(true))),
      HttpRouter.add("GET", "/health/ready", ready)
    )
  }))
