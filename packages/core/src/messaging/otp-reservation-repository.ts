/**
 * The OTP reservations: credits charged for sends whose outcome is not yet stored. Every method
 * takes the account and never sees another account's rows.
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { OtpReservation } from "./otp-reservation.ts"

/** What the OtpReservationRepository port offers (implement this to write an adapter). */
export interface OtpReservationRepositoryShape {
  /** Records a credit just charged for `reservation`'s send, `open`. */
  readonly open: (reservation: OtpReservation) => Effect.Effect<void>
  /**
   * open → settled: the send happened and keeps its credit. False when it was no longer open (the
   * sweeper released it first); the row stays locked until the caller's transaction ends.
   */
  readonly settle: (accountId: number, id: string, now: DateTime.Utc) => Effect.Effect<boolean>
  /**
   * open → released with its credit given back to the account, in one statement. False (nothing
   * changes) when it was no longer open, so a credit is never refunded twice.
   */
  readonly release: (accountId: number, id: string, now: DateTime.Utc) => Effect.Effect<boolean>
  /**
   * The sweeper, across accounts: releases (and refunds) up to `limit` reservations still open that
   * were opened at or before `openedBy`, oldest first, skipping rows another transaction holds
   * (`FOR UPDATE SKIP LOCKED`), so any number of workers can run it. Returns how many it released.
   */
  readonly releaseStale: (openedBy: DateTime.Utc, limit: number, now: DateTime.Utc) => Effect.Effect<number>
  /** The account's reservation with that id, or none. */
  readonly findById: (accountId: number, id: string) => Effect.Effect<Option.Option<OtpReservation>>
}

const OtpReservationRepositoryBase: Context.ServiceClass<
  OtpReservationRepository,
  "@wasl/core/OtpReservationRepository",
  OtpReservationRepositoryShape
> = Context.Service<OtpReservationRepository, OtpReservationRepositoryShape>()("@wasl/core/OtpReservationRepository")

/**
 * The OTP credits charged for sends whose outcome is not stored yet: opened before the provider
 * call, then settled or released (refunded), by the send or by the sweeper.
 */
export class OtpReservationRepository extends OtpReservationRepositoryBase {}
