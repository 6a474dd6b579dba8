/**
 * Test doubles around transactions: a Transactor counting commits and rollbacks, and a MatchLock
 * recording the locks taken.
 */
import { Context, Effect, Exit, Layer } from "effect"
import { Transactor } from "../../src/Deployment.ts"
import { MatchLock } from "../../src/Records.ts"

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

/**
 * A `MatchLock` that records each lock taken and waits for nothing: `withLocks(effect)` runs
 * `effect` with it, `locks` lists the match locks it took (account and kind), `recordLocks` the
 * record locks (account, kind and id).
 */
export const recordingMatchLock = () => {
  const locks: Array<readonly [number, string]> = []
  const recordLocks: Array<readonly [number, string, string]> = []
  const withLocks = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.provideService(effect, MatchLock, {
      lock: (accountId, kind) => Effect.sync(() => void locks.push([accountId, kind])),
      lockRecord: (accountId, kind, id) => Effect.sync(() => void recordLocks.push([accountId, kind, id]))
    })
  return { locks, recordLocks, withLocks }
}
