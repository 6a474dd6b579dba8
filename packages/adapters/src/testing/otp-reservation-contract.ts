/** The contract suite of `OtpReservationRepository` (documented on `otpReservationContract`). */
import { expect, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import { OtpLedger, type OtpReservation, OtpReservationRepository, type OtpReservationStatus } from "@wasl/core/Otp"
import { DateTime, Duration, Effect, type Layer, Option } from "effect"
import { accountOf, accountWithCredits, creditsOf, freshRecordId, plusMillis, reservationAt } from "./otp-fixtures.ts"

/** What the layer under `otpReservationContract` provides. */
export type OtpReservationContractServices = OtpReservationRepository | OtpLedger | AccountRepository

const at = (iso: string) => DateTime.makeUnsafe(iso)
const FAR_FUTURE = at("2200-01-01T00:00:00.000Z")

const statusOf = (r: OtpReservation) =>
  OtpReservationRepository.use((repo) => repo.findById(r.account_id, r.id)).pipe(
    Effect.map((found): OtpReservationStatus => Option.getOrThrow(found).status)
  )

/** Opens `r` the way send-otp does: its credit charged with it. */
const reserve = (r: OtpReservation) =>
  Effect.gen(function*() {
    expect(yield* OtpLedger.use((ledger) => ledger.chargeCredit(r.account_id))).toBe(true)
    yield* OtpReservationRepository.use((repo) => repo.open(r))
    return r
  })

const sweep = (openedBy: DateTime.Utc, limit = 100, now = openedBy) =>
  OtpReservationRepository.use((repo) => repo.releaseStale(openedBy, limit, now))

/** Releases every open reservation of the store. */
const drain = Effect.gen(function*() {
  while ((yield* sweep(FAR_FUTURE, 1_000)) > 0) {
    // until none is left
  }
})

/**
 * The `OtpReservationRepository` contract: the same tests over every implementation (memory,
 * PGlite, PostgreSQL, or yours).
 *
 * - A reservation reads back as opened, in its own account only.
 * - It is settled or released exactly once, also when settle, release and sweeps race for it; a
 *   release gives its credit back to its account exactly once and stamps both with `now`.
 * - The sweep (`releaseStale`) releases and refunds the open reservations opened at or before its
 *   cutoff, oldest first, at most `limit` of them, in every account and to the right account, and
 *   leaves newer, settled and released ones alone; racing sweeps refund each reservation once.
 *
 * The sweep works across accounts, so the sweep tests start by releasing every open reservation
 * in the store (as a sweep far in the future would): run the suite on a test database.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `OtpReservationRepository` (under test), `OtpLedger` (to open
 *   reservations) and `AccountRepository`.
 */
export const otpReservationContract = <E>(
  name: string,
  implementation: Layer.Layer<OtpReservationContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("reads a reservation back as opened, in its own account only", () =>
      Effect.gen(function*() {
        const repo = yield* OtpReservationRepository
        const id = yield* accountWithCredits(1)
        const r = yield* reserve(reservationAt(id, at("2030-06-01T10:20:30.456Z"), "966500000042"))
        expect(yield* repo.findById(id, r.id)).toEqual(Option.some(r))
        const other = yield* accountWithCredits(0)
        expect(yield* repo.findById(other, r.id)).toEqual(Option.none())
        expect(yield* repo.findById(id, freshRecordId())).toEqual(Option.none())
      }))

    it.effect("settles or releases a reservation once, and gives a released credit back once", () =>
      Effect.gen(function*() {
        const repo = yield* OtpReservationRepository
        const t = at("2031-01-01T00:00:00.000Z")
        const later = at("2031-01-01T00:00:05.000Z")
        const id = yield* accountWithCredits(3)
        const settled = yield* reserve(reservationAt(id, t))
        const released = yield* reserve(reservationAt(id, t))
        expect(yield* creditsOf(id)).toBe(1)
        expect(yield* repo.settle(id, settled.id, later)).toBe(true)
        expect(yield* repo.settle(id, settled.id, later)).toBe(false)
        expect(yield* repo.release(id, settled.id, later)).toBe(false)
        expect(yield* creditsOf(id)).toBe(1)
        expect(yield* repo.release(id, released.id, later)).toBe(true)
        expect(yield* repo.release(id, released.id, later)).toBe(false)
        expect(yield* repo.settle(id, released.id, later)).toBe(false)
        expect(yield* creditsOf(id)).toBe(2)
        // The refund and both changes carry `now`.
        expect(DateTime.formatIso((yield* accountOf(id)).updated_at)).toBe("2031-01-01T00:00:05.000Z")
        expect(yield* repo.findById(id, settled.id)).toEqual(Option.some({ ...settled, status: "settled", updated_at: later }))
        expect(yield* repo.findById(id, released.id)).toEqual(
          Option.some({ ...released, status: "released", updated_at: later })
        )
        // Scoped to the account: another account cannot settle or release it.
        const other = yield* accountWithCredits(0)
        const open = yield* reserve(reservationAt(id, t))
        expect(yield* repo.release(other, open.id, t)).toBe(false)
        expect(yield* repo.settle(other, open.id, t)).toBe(false)
        expect(yield* creditsOf(other)).toBe(0)
        expect(yield* statusOf(open)).toBe("open")
        expect(yield* repo.settle(id, open.id, t)).toBe(true)
        expect(yield* creditsOf(id)).toBe(1)
        // Unknown ids are neither settled nor released.
        expect(yield* repo.settle(id, freshRecordId(), t)).toBe(false)
        expect(yield* repo.release(id, freshRecordId(), t)).toBe(false)
        expect(yield* creditsOf(id)).toBe(1)
      }))

    it.effect("settles or releases once when settle, release and sweeps race for one reservation", () =>
      Effect.gen(function*() {
        const repo = yield* OtpReservationRepository
        const t0 = at("2031-06-01T00:00:00.000Z")
        const later = plusMillis(t0, 3_600_000)
        for (let round = 0; round < 5; round++) {
          const id = yield* accountWithCredits(1)
          const r = yield* reserve(reservationAt(id, t0))
          const results = yield* Effect.all([
            repo.settle(id, r.id, later),
            repo.release(id, r.id, later),
            repo.settle(id, r.id, later),
            repo.release(id, r.id, later)
          ], { concurrency: "unbounded" })
          expect(results.filter((won) => won)).toHaveLength(1)
          const status = yield* statusOf(r)
          expect(yield* creditsOf(id)).toBe(status === "released" ? 1 : 0)
        }
      }))

    it.effect("sweeps open reservations opened by the cutoff, to their accounts, and leaves the rest", () =>
      Effect.gen(function*() {
        yield* drain
        const repo = yield* OtpReservationRepository
        const t0 = at("2032-01-01T00:00:00.000Z")
        const id = yield* accountWithCredits(10)
        const other = yield* accountWithCredits(10)
        const stale = yield* reserve(reservationAt(id, t0))
        const newer = yield* reserve(reservationAt(id, plusMillis(t0, 1)))
        const settled = yield* reserve(reservationAt(id, plusMillis(t0, -3_600_000)))
        yield* repo.settle(id, settled.id, t0)
        const released = yield* reserve(reservationAt(id, plusMillis(t0, -3_600_000)))
        yield* repo.release(id, released.id, t0)
        const foreign = yield* reserve(reservationAt(other, plusMillis(t0, -600_000)))
        expect(yield* creditsOf(id)).toBe(7) // 10 - 4 charged + 1 released
        expect(yield* creditsOf(other)).toBe(9)

        // A cutoff just before the stale one: only the older foreign one goes, refunded to its account.
        const now = plusMillis(t0, 120_000)
        expect(yield* sweep(plusMillis(t0, -1), 100, now)).toBe(1)
        expect(yield* creditsOf(other)).toBe(10)
        expect(yield* repo.findById(other, foreign.id)).toEqual(
          Option.some({ ...foreign, status: "released", updated_at: now })
        )
        expect(yield* statusOf(stale)).toBe("open")
        // A cutoff at its opening time takes it (at or before); the newer, settled and released ones stay.
        expect(yield* sweep(t0)).toBe(1)
        expect(yield* statusOf(stale)).toBe("released")
        expect(yield* statusOf(newer)).toBe("open")
        expect(yield* statusOf(settled)).toBe("settled")
        expect(yield* statusOf(released)).toBe("released")
        expect(yield* creditsOf(id)).toBe(8)
        expect(yield* creditsOf(other)).toBe(10)
        // The send that finally comes back finds it released: it is not charged again.
        expect(yield* repo.settle(id, stale.id, plusMillis(t0, 5))).toBe(false)
        // A millisecond later the newer one is due too; then nothing is left.
        expect(yield* sweep(plusMillis(t0, 1))).toBe(1)
        expect(yield* sweep(FAR_FUTURE)).toBe(0)
        expect(yield* creditsOf(id)).toBe(9)
        expect(yield* statusOf(newer)).toBe("released")
      }))

    it.effect("sweeps the oldest first, at most `limit` (a limit below one sweeps none)", () =>
      Effect.gen(function*() {
        yield* drain
        const t0 = at("2032-06-01T00:00:00.000Z")
        const id = yield* accountWithCredits(3)
        // Opened newest first, so the order of the sweep is not the order of opening.
        const [third, second, first] = yield* Effect.forEach([2, 1, 0], (i) => reserve(reservationAt(id, plusMillis(t0, i))))
        const cutoff = plusMillis(t0, 10)
        expect(yield* sweep(cutoff, 0)).toBe(0)
        expect(yield* sweep(cutoff, -3)).toBe(0)
        expect(yield* sweep(cutoff, 0.5)).toBe(0)
        expect(yield* creditsOf(id)).toBe(0)
        expect(yield* sweep(cutoff, 1.9)).toBe(1)
        expect(yield* statusOf(first!)).toBe("released")
        expect(yield* statusOf(second!)).toBe("open")
        expect(yield* sweep(cutoff, 1)).toBe(1)
        expect(yield* statusOf(second!)).toBe("released")
        expect(yield* statusOf(third!)).toBe("open")
        expect(yield* sweep(cutoff, 5)).toBe(1)
        expect(yield* creditsOf(id)).toBe(3)
      }))

    it.effect("refunds each stale reservation once when sweeps race, in batches", () =>
      Effect.gen(function*() {
        yield* drain
        const t0 = at("2033-01-01T00:00:00.000Z")
        const id = yield* accountWithCredits(7)
        const opened = yield* Effect.forEach(
          Array.from({ length: 7 }, (_, i) => plusMillis(t0, i)),
          (t) => reserve(reservationAt(id, t))
        )
        expect(yield* creditsOf(id)).toBe(0)
        const cutoff = plusMillis(t0, 1_000)
        const counts = yield* Effect.all(Array.from({ length: 4 }, () => sweep(cutoff, 2)), { concurrency: "unbounded" })
        let more = 0
        for (let n = yield* sweep(cutoff, 2); n > 0; n = yield* sweep(cutoff, 2)) more += n
        expect(counts.reduce((a, b) => a + b, 0) + more).toBe(7)
        expect(yield* creditsOf(id)).toBe(7)
        for (const r of opened) expect(yield* statusOf(r)).toBe("released")
      }))
  })
