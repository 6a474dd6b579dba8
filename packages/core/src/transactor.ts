import { Context, type Effect } from "effect"

/**
 * Runs an effect as one unit: all of its repository writes commit together or
 * none do (ARCHITECTURE rule 7).
 */
export class Transactor extends Context.Service<Transactor, {
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("@wasl/core/Transactor") {}
