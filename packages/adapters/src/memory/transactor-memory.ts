import { Transactor } from "@wasl/core/Deployment"
import { Effect, Exit, Layer, Ref } from "effect"
import { afterCommit, CurrentCommitActions } from "./after-commit.ts"
import { CurrentMemoryTransaction, MemoryStore } from "./store.ts"

/**
 * Transactions over the memory store: serialised by the store's lock, and
 * rolled back by restoring the snapshot taken at the start when the effect
 * fails, dies or is interrupted. A nested transaction behaves like a PG
 * savepoint: its failure restores the state from its own start.
 *
 * Effects registered with `afterCommit` run once the outermost transaction has
 * committed and released the lock; a nested transaction hands its own to the
 * enclosing one when it succeeds and drops them when it fails, as PostgreSQL
 * drops the NOTIFYs of a rolled-back savepoint.
 */
export const TransactorMemory: Layer.Layer<Transactor, never, MemoryStore> = Layer.effect(
  Transactor,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return Transactor.of({
      transaction: (effect) =>
        Effect.flatMap(CurrentMemoryTransaction, (current) => {
          const actions: Array<Effect.Effect<void>> = []
          const body = Effect.uninterruptibleMask((restore) =>
            Effect.flatMap(Ref.get(store.ref), (snapshot) =>
              Effect.onExit(
                restore(Effect.provideService(effect, CurrentCommitActions, { store, actions })),
                (exit) => Exit.isSuccess(exit) ? Effect.void : Ref.set(store.ref, snapshot)
              ))
          )
          const committed = Effect.suspend(() => Effect.forEach(actions, (action) => afterCommit(store, action), { discard: true }))
          return current === store
            ? Effect.tap(body, () => committed)
            : Effect.tap(store.lock.withPermit(Effect.provideService(body, CurrentMemoryTransaction, store)), () => committed)
        })
    })
  })
)
