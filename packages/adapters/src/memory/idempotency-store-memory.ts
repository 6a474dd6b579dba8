import { Transactor } from "@wasl/core/Deployment"
import {
  IDEMPOTENCY_KEY_LIFETIME,
  type IdempotencyClaim,
  type IdempotencyMode,
  type IdempotencyOutcome,
  type IdempotentWork,
  IdempotencyStore
} from "@wasl/core/Idempotency"
import { DateTime, Effect, Layer, Result } from "effect"
import { mapSet, type MemoryStoreService, MemoryStore, readStore, updateStore } from "./store.ts"
import { TransactorMemory } from "./transactor-memory.ts"

/** The key of a claim in `MemoryState.idempotencyKeys` (JSON, so no separator can be forged). */
export const idempotencyKey = (claim: IdempotencyClaim): string =>
  JSON.stringify([claim.accountId, claim.principal, claim.key])

/**
 * The keys whose request is running, per store. Outside the state on purpose: a claim must be
 * seen at once by a concurrent request (which would otherwise wait for the store's lock, held by
 * the running transaction) and must not be rolled back with it.
 */
const running = new WeakMap<MemoryStoreService, Set<string>>()

const runningOf = (store: MemoryStoreService): Set<string> => {
  const found = running.get(store)
  if (found !== undefined) return found
  const made = new Set<string>()
  running.set(store, made)
  return made
}

/**
 * Idempotency keys in the memory store: same semantics as IdempotencyStorePg. A running key is
 * marked in a set checked and filled in one synchronous step, so of two concurrent requests with a
 * key exactly one runs and the other is `InFlight` at once, in either mode; the kept answer is a
 * row of the state, written in the work's transaction in `"transaction"` mode.
 */
export const IdempotencyStoreMemory: Layer.Layer<IdempotencyStore, never, MemoryStore> = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const transactor = yield* Transactor
    const inFlight = runningOf(store)
    return IdempotencyStore.of({
      run: <A, E, R>(claim: IdempotencyClaim, mode: IdempotencyMode, work: Effect.Effect<IdempotentWork<A>, E, R>) =>
        Effect.suspend((): Effect.Effect<IdempotencyOutcome<A>, E, R> => {
          const key = idempotencyKey(claim)
          if (inFlight.has(key)) return Effect.succeed({ _tag: "InFlight" })
          inFlight.add(key)
          const attempt = Effect.gen(function*() {
            const now = yield* DateTime.now
            const kept = yield* readStore(store, (state) => state.idempotencyKeys.get(key))
            if (kept !== undefined && DateTime.isGreaterThan(kept.expiresAt, now)) {
              return Effect.succeed<IdempotencyOutcome<A>>(
                kept.claim.fingerprint === claim.fingerprint ? { _tag: "Replayed", answer: kept.answer } : { _tag: "Mismatch" }
              )
            }
            // A failed work commits what it wrote, as it would without a key (a wrong code's attempt).
            const done = yield* Effect.result(work)
            if (Result.isFailure(done)) return Effect.fail(done.failure)
            const answer = done.success.keep
            if (answer !== undefined) {
              const expiresAt = DateTime.addDuration(yield* DateTime.now, IDEMPOTENCY_KEY_LIFETIME)
              yield* updateStore(store, (state) =>
                [undefined, { ...state, idempotencyKeys: mapSet(state.idempotencyKeys, key, { claim, answer, expiresAt }) }] as const)
            }
            return Effect.succeed({ _tag: "Ran", value: done.success.value } as const)
          })
          return Effect.flatten(mode === "transaction" ? transactor.transaction(attempt) : attempt).pipe(
            Effect.ensuring(Effect.sync(() => inFlight.delete(key)))
          )
        })
    })
  })
).pipe(Layer.provide(TransactorMemory))
