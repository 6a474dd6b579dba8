import { Retention, type RetentionKind } from "@wasl/core/Retention"
import { DateTime, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/**
 * What one kind of row is pruned by. `age` and `prunable` are exactly the expression and the
 * predicate of the rule's partial index (migration 0011), so PostgreSQL walks that index from its
 * oldest entry.
 */
interface PruneRule {
  /** The table. */
  readonly table: string
  /** Its primary key's columns. */
  readonly key: ReadonlyArray<string>
  /** When a row's retention began. */
  readonly age: string
  /** Which rows may be pruned at all. */
  readonly prunable: string
}

/**
 * The pruning rules: adding a kind of row with a retention is one line here (and its index). A
 * kind with two rules prunes both with the same cutoff, each a batch of its own.
 */
const RULES: Readonly<Record<RetentionKind, PruneRule | readonly [PruneRule, PruneRule]>> = {
  deliveries: { table: "deliveries", key: ["account_id", "id"], age: "updated_at", prunable: "status <> 'pending'" },
  notifications: {
    table: "notifications",
    key: ["account_id", "id"],
    age: "coalesce(read_at, created_at)",
    prunable: "(read_at IS NOT NULL OR NOT stored)"
  },
  verifications: { table: "otp_verifications", key: ["account_id", "id"], age: "expires_at", prunable: "true" },
  idempotency: { table: "idempotency_keys", key: ["account_id", "principal", "key"], age: "expires_at", prunable: "true" },
  exports: [
    // The files: `written_at` is the export's expiry less the retention, so a file goes at expiry.
    { table: "export_chunks", key: ["account_id", "export_id", "seq"], age: "written_at", prunable: "true" },
    // The exports themselves, the retention after their expiry (status `expired` meanwhile), or
    // after they failed (migration 0018).
    {
      table: "exports",
      key: ["account_id", "id"],
      age: "coalesce(expires_at, updated_at)",
      prunable: "status IN ('completed', 'failed')"
    }
  ],
  // Finished imports, with their refused rows by cascade (migration 0018).
  imports: { table: "imports", key: ["account_id", "id"], age: "finished_at", prunable: "status IN ('completed', 'failed')" },
  // Settled or released OTP reservations, from when their send's outcome was stored (migration 0019).
  reservations: { table: "otp_reservations", key: ["account_id", "id"], age: "updated_at", prunable: "status <> 'open'" },
  // Statuses held for messages never stored, from when they arrived (migration 0029).
  statusHolds: {
    table: "message_status_holds",
    key: ["account_id", "provider_message_id", "status"],
    age: "created_at",
    prunable: "true"
  },
  // Invitations, from when they were accepted or revoked, or else expired (migration 0049): a
  // pending one's expiry is still ahead of any cutoff.
  invitations: {
    table: "invitations",
    key: ["account_id", "id"],
    age: "coalesce(accepted_at, revoked_at, expires_at)",
    prunable: "true"
  },
  // Deleted records, from their deletion (migration 0053).
  trash: { table: "record_trash", key: ["account_id", "kind", "id"], age: "deleted_at", prunable: "true" },
  // Records' property history, from the change an entry records (migration 0054).
  history: { table: "property_history", key: ["account_id", "seq"], age: "changed_at", prunable: "true" }
}

/**
 * One batch of a rule: the oldest `$2` prunable rows older than `$1`, skipping rows locked by a
 * writer or another pruner, deleted in one short statement (deliveries take their attempts with
 * them, by cascade); answers how many.
 */
const batchStatement = (rule: PruneRule): string => `
  WITH gone AS (
    DELETE FROM ${rule.table} t
    USING (
      SELECT ${rule.key.join(", ")} FROM ${rule.table}
      WHERE ${rule.prunable} AND ${rule.age} < $1
      ORDER BY ${rule.age}
      LIMIT $2
      FOR UPDATE SKIP LOCKED
    ) old
    WHERE ${rule.key.map((column) => `t.${column} = old.${column}`).join(" AND ")}
    RETURNING 1
  )
  SELECT count(*)::int4 AS n FROM gone
`

const STATEMENTS = Object.fromEntries(
  Object.entries(RULES).map(([kind, rules]): [string, ReadonlyArray<string>] => [kind, new Array<PruneRule>().concat(rules).map(batchStatement)])
) as Readonly<Record<RetentionKind, ReadonlyArray<string>>>

/**
 * Retention on PostgreSQL: each batch is one statement (`DELETE ... USING (SELECT ... ORDER BY
 * <age> LIMIT n FOR UPDATE SKIP LOCKED)`), so it holds its row locks only for its own few
 * milliseconds, never waits for a row a delivery or another pruner holds, and several workers
 * prune at once without conflict.
 */
export const RetentionPg: Layer.Layer<Retention, never, SqlClient.SqlClient> = Layer.effect(
  Retention,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Retention.of({
      pruneBatch: (kind, cutoff, limit) => {
        const count = Math.floor(limit)
        if (!(count > 0)) return Effect.succeed(0)
        const params = [DateTime.toDateUtc(cutoff), count]
        // Each rule its own statement; the sum reaches `limit` whenever one of them did.
        return Effect.reduce(STATEMENTS[kind], () => 0, (total, statement) =>
          sql.unsafe<{ n: number }>(statement, params).pipe(Effect.map((rows) => total + Number(rows[0]?.n ?? 0)))).pipe(
            Effect.orDie
          )
      }
    })
  })
)
