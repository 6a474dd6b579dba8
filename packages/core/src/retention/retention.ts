/**
 * The Retention port: deletes finished rows whose retention ran out, a small batch at a time, so
 * the tables that grow with traffic (deliveries and their attempts, notifications, OTP
 * verifications and their credit reservations, idempotency keys, finished CSV imports with their
 * rows, CSV exports and their files, statuses held for messages never stored, invitations no longer
 * pending, records' property history) stay bounded. The worker calls it in a loop (use-cases/prune.ts).
 *
 * Each batch is its own short statement: it takes the oldest `limit` prunable rows, skipping rows
 * another pruner or writer holds (on PostgreSQL `FOR UPDATE SKIP LOCKED`), so any number of
 * workers prune at once without waiting on each other or on deliveries going on.
 */
import { Context, type DateTime, type Effect } from "effect"
import { DEFAULT_RETENTION, type RetentionPolicyShape } from "./retention-policy.ts"

/** A kind of row with a retention: one field of the retention policy. */
export type RetentionKind = keyof RetentionPolicyShape

/**
 * Every kind the worker prunes, in the order it prunes them: the fields of the policy, so a new
 * kind needs only its default (and each adapter its rule, which their types demand).
 */
export const RETENTION_KINDS: ReadonlyArray<RetentionKind> = Object.keys(DEFAULT_RETENTION) as Array<RetentionKind>

/** What the Retention port offers (implement this to write an adapter). */
export interface RetentionShape {
  /**
   * Deletes up to `limit` of the oldest rows of `kind` whose age (see `RetentionPolicyShape`)
   * began before `cutoff` — for deliveries only finished ones, with their attempts; for imports
   * only finished ones, with their rows; for OTP reservations only settled or released ones — and
   * answers how many. For exports, up to `limit` files'
   * chunks and up to `limit` exports, answering the sum. Fewer than `limit`: none were left
   * (apart from rows another pruner held).
   */
  readonly pruneBatch: (kind: RetentionKind, cutoff: DateTime.Utc, limit: number) => Effect.Effect<number>
}

const RetentionBase: Context.ServiceClass<Retention, "@wasl/core/Retention", RetentionShape> = Context.Service<
  Retention,
  RetentionShape
>()("@wasl/core/Retention")

/** Deletes rows whose retention ran out, a small batch at a time (see `RetentionShape`). */
export class Retention extends RetentionBase {}
