import { Context, type Effect } from "effect"

/** What the {@link Transactor} port offers (implement this to write an adapter). */
export interface TransactorShape {
  /**
   * Runs `effect` in one transaction: committed when it succeeds, rolled back when it fails or is
   * interrupted. A transaction inside another is a savepoint of it: its failure undoes only its
   * own writes, and its writes commit with the outer transaction.
   */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

const TransactorBase: Context.ServiceClass<Transactor, "@wasl/core/Transactor", TransactorShape> = Context
  .Service<Transactor, TransactorShape>()("@wasl/core/Transactor")

/**
 * Runs an effect as one unit: all of its repository writes commit together or none do. Every write
 * commits with the outbox events it fires. Its operations: {@link TransactorShape}.
 */
export class Transactor extends TransactorBase {}
