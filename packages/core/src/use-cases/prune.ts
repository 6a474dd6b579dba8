/**
 * Pruning (retention/retention.ts): one round of small deletes over every kind of row with a
 * retention. Run in a loop by the worker; any number of workers may run it at once.
 */
import { DateTime, Effect } from "effect"
import { Retention, RETENTION_KINDS, type RetentionKind } from "../retention/retention.ts"
import { RetentionPolicy } from "../retention/retention-policy.ts"

/** How many rows one `pruneExpired` round deleted, per kind. */
export type PruneResult = Readonly<Record<RetentionKind, number>>

/**
 * Deletes up to `limit` rows of each kind whose retention (`RetentionPolicy`) ran out, each kind
 * in its own short statement; answers how many per kind. A kind with `limit` deleted may have more.
 */
export const pruneExpired: (limit: number) => Effect.Effect<PruneResult, never, Retention> = Effect.fn("pruneExpired")(
  function*(limit: number) {
    const retention = yield* Retention
    const policy = yield* RetentionPolicy
    const now = yield* DateTime.now
    const result: Record<string, number> = {}
    for (const kind of RETENTION_KINDS) {
      result[kind] = yield* retention.pruneBatch(kind, DateTime.subtractDuration(now, policy[kind]), limit)
    }
    return result as PruneResult
  }
)
