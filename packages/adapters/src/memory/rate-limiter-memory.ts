import { makePruneSchedule, RateLimiter, type RateWindow } from "@wasl/core/Auth"
import { Effect, Layer } from "effect"

/**
 * Rate-limit counts in this process; the twin of `RateLimiterPg`. Kept apart from the memory store,
 * so a rolled-back transaction does not undo a count (as the PostgreSQL counts live outside the
 * request's transaction). One process's counts: replicas each count alone.
 */
export const RateLimiterMemory: Layer.Layer<RateLimiter> = Layer.sync(RateLimiter, () => {
  // Each operation is one synchronous step, hence atomic between fibers.
  const counts = new Map<string, RateWindow & { count: number }>()
  const pruneDue = makePruneSchedule()
  const prune = (nowMillis: number) => {
    let pruned = 0
    for (const [key, kept] of counts) {
      if (kept.end <= nowMillis) {
        counts.delete(key)
        pruned++
      }
    }
    return pruned
  }
  return RateLimiter.of({
    hit: (key, window) =>
      Effect.sync(() => {
        // Every window that ended before this one began is over for good.
        if (pruneDue(window)) prune(window.start)
        const kept = counts.get(key)
        if (kept === undefined || kept.start < window.start) {
          counts.set(key, { ...window, count: 1 })
          return 1
        }
        return ++kept.count
      }),
    prune: (nowMillis) => Effect.sync(() => prune(nowMillis))
  })
})
