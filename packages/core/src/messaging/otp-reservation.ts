/**
 * An OTP reservation: the credit a send-otp charged before it called the provider, kept durably
 * until the send's outcome is stored.
 *
 * send-otp runs in two short transactions with the provider call between them, so no database
 * connection or account row lock is held while the provider answers (up to its timeout):
 *
 * 1. charge one credit, claim the recipient's cooldown and open a reservation — commit;
 * 2. call the provider, with no transaction open;
 * 3. accepted → store the contact, message and verification and settle the reservation;
 *    rejected or unavailable → release it (the credit back) and the cooldown claim.
 *
 * A reservation still open `OTP_RESERVATION_SAFE_AFTER` after it was opened belongs to a send
 * whose process stopped between 1 and 3 (a crash, a restart): the sweeper releases it and gives
 * the credit back. Such a send may have reached the provider and been accepted just before the
 * crash; it then goes uncharged. That is the trade-off, chosen in the customer's favour: a credit
 * is never kept for a send that may not have happened, at the price of rarely not charging one
 * that did. (The other way round — charging a send the provider never took — cannot happen.) The
 * sweeper leaves the cooldown claim in place: the code may have reached the recipient.
 */
import { type DateTime, Duration } from "effect"

/**
 * Where a reservation stands: `open` until the send's outcome is stored, then `settled` (the
 * credit is kept) or `released` (the credit given back).
 */
export type OtpReservationStatus = "open" | "settled" | "released"

/** The credit a send-otp charged, held until the send's outcome is stored. */
export interface OtpReservation {
  /** A record id (24 lowercase hex). */
  readonly id: string
  /** The account charged. */
  readonly account_id: number
  /** The recipient's digits: the key of the cooldown claim the send made. */
  readonly recipient: string
  /** Open, settled or released. */
  readonly status: OtpReservationStatus
  /** When the credit was charged and the cooldown claimed (the send time). */
  readonly created_at: DateTime.Utc
  /** When it was last changed. */
  readonly updated_at: DateTime.Utc
}

/**
 * How long an open reservation is left to its send before the sweeper refunds it: well beyond the
 * longest provider call (the Cloud API adapter gives up after 15 s) plus the second transaction,
 * so a send still running is never refunded under it.
 */
export const OTP_RESERVATION_SAFE_AFTER: Duration.Duration = Duration.minutes(2)
