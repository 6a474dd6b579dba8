/** Arbitraries of time: instants, and steps of a clock. */
import { DateTime } from "effect"
import * as fc from "fast-check"

/** An instant between 2000 and 2100, to the millisecond. */
export const instant: fc.Arbitrary<DateTime.Utc> = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) })
  .map((millis) => DateTime.makeUnsafe(millis))

/**
 * How far a clock moves in one step, in milliseconds, up to `maxMillis`: not at all, by a few
 * milliseconds, by whole seconds, or anywhere in the range, one time in four each. Landing exactly
 * on an expiry or a due time is the boundary steps' work (`boundaryOffset`): these steps rarely do.
 *
 * @example
 * ```ts
 * otpCommands({ advance: clockStep(2 * 60_000) }) // steps of at most two minutes
 * ```
 */
export const clockStep = (maxMillis: number): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constant(0),
    fc.integer({ min: 0, max: Math.min(maxMillis, 1000) }),
    fc.integer({ min: 0, max: Math.floor(maxMillis / 1000) }).map((seconds) => seconds * 1000),
    fc.integer({ min: 0, max: maxMillis })
  )

/**
 * Where a boundary step lands relative to the model's next boundary (a code's expiry, a
 * delivery's next attempt), in milliseconds: on it half the time, 1 ms before (the last instant
 * the old rule holds) or 1 ms after, a quarter each.
 *
 * @example
 * ```ts
 * otpCommands({ toBoundary: fc.constant(0) }) // boundary steps land exactly on the expiry
 * ```
 */
export const boundaryOffset: fc.Arbitrary<number> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constant(-1) },
  { weight: 1, arbitrary: fc.constant(1) }
)
