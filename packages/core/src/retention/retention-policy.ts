/**
 * How long finished work is kept before the worker prunes it (`WASL_RETENTION_*`). A reference
 * with the defaults below, so only the edge that reads configuration provides it.
 *
 * The event outbox needs no retention: an event is deleted as soon as it has been fanned out to
 * its deliveries, so the table only ever holds pending events.
 */
import { Context, Duration } from "effect"

/** The retention of each kind of row the worker prunes. */
export interface RetentionPolicyShape {
  /**
   * Finished webhook deliveries (succeeded or failed) and their attempts, counted from when they
   * finished (`WASL_RETENTION_DELIVERIES`). A pending delivery is never pruned.
   */
  readonly deliveries: Duration.Duration
  /**
   * Notifications, counted from when they were read (`WASL_RETENTION_NOTIFICATIONS`); an unread
   * listed notification is kept. One never listed (its member turned the `stored` channel off) is
   * counted from its creation.
   */
  readonly notifications: Duration.Duration
  /**
   * OTP verifications, counted from their expiry (`WASL_RETENTION_VERIFICATIONS`). Until then a
   * verification answers its status (410 once it is no longer live); after it, 404.
   */
  readonly verifications: Duration.Duration
  /**
   * Kept `Idempotency-Key` answers, counted from their expiry, 24 hours after the first request
   * (`WASL_RETENTION_IDEMPOTENCY`). An expired key no longer replays, so by default it goes at once.
   */
  readonly idempotency: Duration.Duration
  /**
   * The files of CSV exports, counted from when the run that wrote one began
   * (`WASL_RETENTION_EXPORTS`): the export's `expires_at`. After it the download answers 410 and
   * the worker deletes the file; the export itself stays as long again, its status `expired`,
   * and then goes too (404). A failed export goes that long after it failed.
   */
  readonly exports: Duration.Duration
  /**
   * Finished CSV imports (completed or failed) with their refused rows, counted from when they
   * finished (`WASL_RETENTION_IMPORTS`); afterwards the import answers 404. A queued or running
   * import is never pruned.
   */
  readonly imports: Duration.Duration
  /**
   * OTP credit reservations once their send's outcome is stored (settled or released), counted
   * from then (`WASL_RETENTION_RESERVATIONS`). Nothing reads a finished one; it holds a recipient's
   * number, so it goes like the verification it belongs to. An open one is never pruned (the
   * sweeper releases it first).
   */
  readonly reservations: Duration.Duration
  /**
   * Statuses Meta reported for a message the account has not stored (yet), counted from when they
   * arrived (`WASL_RETENTION_STATUS_HOLDS`). A send stores its message within seconds of Meta's
   * answer, so one held longer is of a message sent outside Wasl and would never be taken.
   */
  readonly statusHolds: Duration.Duration
  /**
   * Invitations once they can no longer be accepted (accepted, revoked or expired), counted from
   * when that happened (`WASL_RETENTION_INVITATIONS`). Until then a used link answers 410, after it
   * 404; a pending invitation is never pruned before it expires.
   */
  readonly invitations: Duration.Duration
  /**
   * Deleted records in the trash, counted from their deletion (`WASL_RETENTION_TRASH`). Until then
   * a record can be restored with its notes and links; after it, it is gone for good.
   */
  readonly trash: Duration.Duration
  /**
   * The entries of records' property history, counted from the change they record
   * (`WASL_RETENTION_HISTORY`): a record's timeline reaches back this far.
   */
  readonly history: Duration.Duration
}

/**
 * The defaults: deliveries 30 days, notifications 90 days, OTP verifications 30 days, idempotency
 * keys as soon as they expire, export files 7 days (and the exports 7 more), imports 30 days,
 * finished OTP reservations 30 days, held statuses 7 days, used, revoked and expired invitations 30 days,
 * deleted records in the trash 30 days, property history a year (365 days).
 */
export const DEFAULT_RETENTION: RetentionPolicyShape = {
  deliveries: Duration.days(30),
  notifications: Duration.days(90),
  verifications: Duration.days(30),
  idempotency: Duration.zero,
  exports: Duration.days(7),
  imports: Duration.days(30),
  reservations: Duration.days(30),
  statusHolds: Duration.days(7),
  invitations: Duration.days(30),
  trash: Duration.days(30),
  history: Duration.days(365)
}

/**
 * The retention in effect: `DEFAULT_RETENTION` unless a deployment provides another.
 *
 * @example
 * ```ts
 * const short = { ...DEFAULT_RETENTION, deliveries: Duration.days(7) }
 * const run = Effect.provideService(program, RetentionPolicy, short)
 * ```
 */
export const RetentionPolicy: Context.Reference<RetentionPolicyShape> = Context.Reference<RetentionPolicyShape>(
  "@wasl/core/RetentionPolicy",
  { defaultValue: () => DEFAULT_RETENTION }
)
