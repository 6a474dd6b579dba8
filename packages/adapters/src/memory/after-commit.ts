import type { WorkQueue } from "@wasl/core/Events"
import { Context, Effect } from "effect"
import type { MemoryStoreService } from "./store.ts"

/** The effects a running transaction on `store` runs once it commits. */
export interface CommitActions {
  /** The store the transaction runs on. */
  readonly store: MemoryStoreService
  /** The effects to run at commit, in order. */
  readonly actions: Array<Effect.Effect<void>>
}

/** The after-commit list of the transaction the current fiber runs in (set by `TransactorMemory`). */
export const CurrentCommitActions: Context.Reference<CommitActions | undefined> = Context.Reference<CommitActions | undefined>(
  "@wasl/adapters/CurrentCommitActions",
  { defaultValue: () => undefined }
)

/**
 * Runs `effect` when the store's current transaction commits — never if it rolls back — or at once
 * outside a transaction: the timing of PostgreSQL's NOTIFY, which the memory queues imitate so a
 * woken worker never looks for rows that are not committed yet. For a memory adapter of your own
 * that wakes listeners after its writes.
 */
export const afterCommit = (store: MemoryStoreService, effect: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(CurrentCommitActions, (pending) =>
    pending !== undefined && pending.store === store
      ? Effect.sync(() => {
        pending.actions.push(effect)
      })
      : effect)

/** Wakes the listeners of `queue` once the current transaction commits (at once outside one). */
export const signalAfterCommit = (store: MemoryStoreService, queue: WorkQueue): Effect.Effect<void> =>
  afterCommit(store, Effect.sync(() => store.signals.signal(queue)))
