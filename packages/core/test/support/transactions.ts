/** A Transactor wrapper counting commits and rollbacks of the real one underneath. */
import { Context, Effect, Exit, Layer } from "effect"
import { Transactor } from "../../src/index.ts"

export class TransactionCounts
  extends Context.Service<TransactionCounts, { committed: number; rolledBack: number }>()(
    "@wasl/core/test/TransactionCounts"
  )
{}

/** Needs the real `Transactor`; provides a counting one in its place, and the counts. */
export const TransactorCounted: Layer.Layer<Transactor | TransactionCounts, never, Transactor> = Layer.effectContext(
  Effect.gen(function*() {
    const real = yield* Transactor
    const counts = { committed: 0, rolledBack: 0 }
    const transactor = Transactor.of({
      transaction: (effect) =>
        real.transaction(effect).pipe(
          Effect.onExit((exit) =>
            Effect.sync(() => {
              if (Exit.isSuccess(exit)) counts.committed++
              else counts.rolledBack++
            })
          )
        )
    })
    return Context.make(Transactor, transactor).pipe(Context.add(TransactionCounts, counts))
  })
)
