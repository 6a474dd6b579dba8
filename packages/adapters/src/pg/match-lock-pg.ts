import { MatchLock } from "@wasl/core/Records"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/**
 * `MatchLock` on PostgreSQL: a transaction-scoped advisory lock (`pg_advisory_xact_lock`) keyed by
 * a 64-bit hash of the account and the kind (or of the account, the kind and a record's id),
 * released by PostgreSQL when the transaction commits or rolls back. Two keys that hash alike only
 * wait for each other more often than they need to.
 */
export const MatchLockPg: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effect(
  MatchLock,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const hold = (key: string) =>
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.pipe(Effect.asVoid, Effect.orDie)
    return {
      lock: (accountId, kind) => hold(`wasl:match:${accountId}:${kind}`),
      lockRecord: (accountId, kind, id) => hold(`wasl:record:${accountId}:${kind}:${id}`)
    }
  })
)
