import { Readiness } from "@wasl/core/Deployment"
import { Effect, Layer } from "effect"

/** Readiness of the memory store: it lives in the process and has no schema, so it is always ready. */
export const ReadinessMemory: Layer.Layer<Readiness> = Layer.succeed(Readiness, Readiness.of({ check: Effect.succeed(true) }))
