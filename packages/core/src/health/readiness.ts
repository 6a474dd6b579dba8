/**
 * The Readiness port: whether the store a process runs on can serve requests now. A readiness
 * probe (`GET /health/ready`) asks it; the answer is only yes or no, so nothing about the store
 * (its version, host or error) ever reaches the caller.
 */
import { Context, type Effect } from "effect"

/** What the Readiness port offers (implement this to write an adapter). */
export interface ReadinessShape {
  /**
   * True when the store answers and its schema is the one this build expects (every migration
   * applied, none newer); false otherwise, including when it does not answer in time. Never fails.
   */
  readonly check: Effect.Effect<boolean>
}

const ReadinessBase: Context.ServiceClass<Readiness, "@wasl/core/Readiness", ReadinessShape> = Context.Service<
  Readiness,
  ReadinessShape
>()("@wasl/core/Readiness")

/** Whether the store can serve requests now (see `ReadinessShape`). */
export class Readiness extends ReadinessBase {}
