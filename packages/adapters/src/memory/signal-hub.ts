import type { WorkQueue } from "@wasl/core/Events"

/**
 * The memory store's `NOTIFY`: who is listening for each work queue (`QueueSignalsMemory`) and a
 * way to wake them (the outbox, the delivery queue and the WhatsApp inbox, after their writes commit). It lives
 * beside the store's state, not in it: a rollback restores rows, never listeners.
 */
export interface MemorySignalHub {
  /** Wakes every listener of `queue`, synchronously (a listener only opens a latch). */
  readonly signal: (queue: WorkQueue) => void
  /** Calls `wake` on each signal of `queue` until the returned function is called. */
  readonly listen: (queue: WorkQueue, wake: () => void) => () => void
}

/** A hub with no listeners. Internal plumbing of `MemoryStore`. */
export const makeSignalHub = (): MemorySignalHub => {
  const listeners: { readonly [Q in WorkQueue]: Set<() => void> } = {
    outbox: new Set(),
    deliveries: new Set(),
    whatsapp: new Set()
  }
  return {
    signal: (queue) => {
      for (const wake of [...listeners[queue]]) wake()
    },
    listen: (queue, wake) => {
      // A listener of its own, so listening twice with one function is two subscriptions.
      const listener = () => wake()
      listeners[queue].add(listener)
      return () => {
        listeners[queue].delete(listener)
      }
    }
  }
}
