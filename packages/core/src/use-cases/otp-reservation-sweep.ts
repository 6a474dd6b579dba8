/**
 * The OTP reservation sweeper (see messaging/otp-reservation.ts): gives back the credits of sends
 * whose process stopped between charging and storing the outcome. Run periodically by the worker;
 * any number of workers may run it at once (the store skips rows another one holds).
 */
import { DateTime, Effect } from "effect"
import { OtpReservationRepository } from "../messaging/otp-reservation-repository.ts"
import { OTP_RESERVATION_SAFE_AFTER } from "../messaging/otp-reservation.ts"

/**
 * Releases up to `limit` reservations opened at least `OTP_RESERVATION_SAFE_AFTER` ago and still
 * open, refunding their credits; returns how many (fewer than `limit`: none are left).
 */
export const sweepOtpReservations: (
  limit: number
) => Effect.Effect<number, never, OtpReservationRepository> = Effect.fn("sweepOtpReservations")(function*(limit: number) {
  const now = yield* DateTime.now
  const openedBy = DateTime.subtractDuration(now, OTP_RESERVATION_SAFE_AFTER)
  const released = yield* OtpReservationRepository.use((repo) => repo.releaseStale(openedBy, limit, now))
  if (released > 0) yield* Effect.logWarning("refunded OTP credits of sends left unfinished").pipe(Effect.annotateLogs({ reservations: released }))
  return released
})
