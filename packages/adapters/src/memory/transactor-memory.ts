import { Transactor } from "@wasl/core"
import { Effect, Exit, Layer, Ref } from "effect"
import { CurrentMemoryTransaction, MemoryStore } from "./store.ts"

/**
 * Transactions over the memory store: serialised by the store's lock, and
 * rolled back by restoring the snapshot taken at the start when the effect
 * fails, dies or is interrupted. A nested transaction behaves like a PG
 * savepoint: its failure restores the state from its own start.
 */
export const TransactorMemory: Layer.Layer<Transactor, never, MemoryStore> = Layer.effect(
  Transactor,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return Transactor.of({
      transaction: (effect) =>
        Effect.flatMap(CurrentMemoryTransaction, (current) => {
          const body = Effect.uninterruptibleMask((restore) =>
            Effect.flatMap(Ref.get(store.ref), (snapshot) =>
              Effect.onExit(
                restore(effect),
                (exit) => Exit.isSuccess(exit) ? Effect.void : Ref.set(store.ref, snapshot)
              ))
          )
          return current === store
            ? body
            : store.lock.withPermit(Effect.provideService(body, CurrentMemoryTransaction, store))
        })
    })
  })
)
