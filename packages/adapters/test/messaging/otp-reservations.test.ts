/**
 * OTP reservations on PGlite and PostgreSQL (spec §4.2 rule 9, §8 OTP credits; core
 * messaging/otp-reservation.ts): a reservation is settled or released exactly once and a release
 * gives its credit back exactly once; the sweeper (`sweepOtpReservations`, time driven by
 * TestClock) refunds the open reservations at least OTP_RESERVATION_SAFE_AFTER old — in every
 * account, to the right account — and leaves newer, settled and released ones alone, also when
 * sweepers race; a released cooldown claim frees the recipient unless a later send claimed it.
 */
import { describe, expect, layer } from "@effect/vitest"
import type { PgClient } from "@effect/sql-pg"
import {
  AccountRepository,
  OTP_RESERVATION_SAFE_AFTER,
  OtpLedger,
  type OtpReservation,
  OtpReservationRepository,
  type OtpReservationStatus,
  sweepOtpReservations
} from "@wasl/core"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { MigrationsLive } from "../../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../../src/db/test-database.ts"
import { RepositoriesPg } from "../../src/pg/index.ts"

const onDatabase = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  RepositoriesPg.pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provideMerge(database)
  )

const MINUTE = Duration.seconds(60)
const at = (iso: string) => DateTime.makeUnsafe(iso)
const plus = (t: DateTime.Utc, ms: number) => DateTime.add(t, { milliseconds: ms })
const SAFE_MS = Duration.toMillis(OTP_RESERVATION_SAFE_AFTER)

let seq = 0
const reservationAt = (accountId: number, openedAt: DateTime.Utc, recipient = "966500000001"): OtpReservation => ({
  id: (++seq).toString(16).padStart(24, "0"),
  account_id: accountId,
  recipient,
  status: "open",
  created_at: openedAt,
  updated_at: openedAt
})

const newAccount = (otpCredits: number) =>
  AccountRepository.use((accounts) =>
    accounts.create({ name: "Reservations", plan: "business", webhookLimit: null, otpCredits }).pipe(Effect.map((a) => a.id))
  )

const balance = (id: number) =>
  AccountRepository.use((accounts) => accounts.findById(id)).pipe(Effect.map((a) => Option.getOrThrow(a).otp_credits))

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

/** Runs `effect` with the clock set to `now` (a TestClock of its own). */
const atTime = <A, E, R>(now: DateTime.Utc, effect: Effect.Effect<A, E, R>) =>
  Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(now)), effect).pipe(Effect.provide(TestClock.layer()))

const sweepAt = (now: DateTime.Utc, limit = 100) => atTime(now, sweepOtpReservations(limit))

const reservationContract = <E>(
  name: string,
  implementation: Layer.Layer<OtpReservationRepository | OtpLedger | AccountRepository, E>
) =>
  layer(implementation, { timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("settles or releases a reservation once, and gives a released credit back once", () =>
      Effect.gen(function*() {
        const repo = yield* OtpReservationRepository
        const t = at("2031-01-01T00:00:00.000Z")
        const id = yield* newAccount(3)
        const settled = yield* reserve(reservationAt(id, t))
        const released = yield* reserve(reservationAt(id, t))
        expect(yield* balance(id)).toBe(1)
        expect(yield* repo.settle(id, settled.id, t)).toBe(true)
        expect(yield* repo.settle(id, settled.id, t)).toBe(false)
        expect(yield* repo.release(id, settled.id, t)).toBe(false)
        expect(yield* balance(id)).toBe(1)
        expect(yield* repo.release(id, released.id, t)).toBe(true)
        expect(yield* repo.release(id, released.id, t)).toBe(false)
        expect(yield* repo.settle(id, released.id, t)).toBe(false)
        expect(yield* balance(id)).toBe(2)
        expect(yield* statusOf(settled)).toBe("settled")
        expect(yield* statusOf(released)).toBe("released")
        // Scoped to the account: another account cannot settle or release it.
        const other = yield* newAccount(0)
        const open = yield* reserve(reservationAt(id, t))
        expect(yield* repo.release(other, open.id, t)).toBe(false)
        expect(yield* repo.settle(other, open.id, t)).toBe(false)
        expect(yield* balance(other)).toBe(0)
        expect(yield* repo.settle(id, open.id, t)).toBe(true)
      }))

    it.effect("sweeps open reservations older than the safe time, to their accounts, and leaves the rest", () =>
      Effect.gen(function*() {
        const repo = yield* OtpReservationRepository
        const t0 = at("2032-01-01T00:00:00.000Z")
        const id = yield* newAccount(10)
        const other = yield* newAccount(10)
        const stale = yield* reserve(reservationAt(id, t0))
        const newer = yield* reserve(reservationAt(id, plus(t0, 1)))
        const settled = yield* reserve(reservationAt(id, plus(t0, -3_600_000)))
        yield* repo.settle(id, settled.id, t0)
        const released = yield* reserve(reservationAt(id, plus(t0, -3_600_000)))
        yield* repo.release(id, released.id, t0)
        const foreign = yield* reserve(reservationAt(other, plus(t0, -600_000)))
        expect(yield* balance(id)).toBe(7) // 10 - 4 charged + 1 released
        expect(yield* balance(other)).toBe(9)

        // Just before the safe time is up for the stale one: only the older foreign one goes.
        expect(yield* sweepAt(plus(t0, SAFE_MS - 1))).toBe(1)
        expect(yield* balance(other)).toBe(10)
        expect(yield* statusOf(foreign)).toBe("released")
        expect(yield* statusOf(stale)).toBe("open")
        // At the safe time: the stale one is refunded; the newer, settled and released ones stay.
        expect(yield* sweepAt(plus(t0, SAFE_MS))).toBe(1)
        expect(yield* statusOf(stale)).toBe("released")
        expect(yield* statusOf(newer)).toBe("open")
        expect(yield* statusOf(settled)).toBe("settled")
        expect(yield* statusOf(released)).toBe("released")
        expect(yield* balance(id)).toBe(8)
        expect(yield* balance(other)).toBe(10)
        // The send that finally comes back finds it released: it is not charged again.
        expect(yield* repo.settle(id, stale.id, plus(t0, SAFE_MS))).toBe(false)
        // A millisecond later the newer one is due too; then nothing is left.
        expect(yield* sweepAt(plus(t0, SAFE_MS + 1))).toBe(1)
        expect(yield* sweepAt(plus(t0, SAFE_MS * 10))).toBe(0)
        expect(yield* balance(id)).toBe(9)
        expect(yield* statusOf(newer)).toBe("released")
      }))

    it.effect("refunds each stale reservation once when sweepers race, in batches", () =>
      Effect.gen(function*() {
        const t0 = at("2033-01-01T00:00:00.000Z")
        const id = yield* newAccount(7)
        const opened = yield* Effect.forEach(Array.from({ length: 7 }, (_, i) => plus(t0, i)), (t) => reserve(reservationAt(id, t)))
        expect(yield* balance(id)).toBe(0)
        const later = plus(t0, SAFE_MS * 2)
        const counts = yield* atTime(
          later,
          Effect.all(Array.from({ length: 4 }, () => sweepOtpReservations(2)), { concurrency: "unbounded" })
        )
        const more = yield* sweepAt(later, 2)
        expect(counts.reduce((a, b) => a + b, 0) + more).toBe(7)
        expect(yield* balance(id)).toBe(7)
        for (const r of opened) expect(yield* statusOf(r)).toBe("released")
      }))

    it.effect("releases a cooldown claim unless a later send claimed the recipient since", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const t0 = at("2034-01-01T00:00:00.000Z")
        const id = yield* newAccount(0)
        expect(yield* ledger.claimCooldown(id, "966500000077", t0, MINUTE)).toEqual(Option.none())
        yield* ledger.releaseCooldown(id, "966500000077", t0)
        const t1 = plus(t0, 1_000)
        expect(yield* ledger.claimCooldown(id, "966500000077", t1, MINUTE)).toEqual(Option.none())
        // A stale release (the first claim's time) leaves the later claim in place.
        yield* ledger.releaseCooldown(id, "966500000077", t0)
        expect(yield* ledger.claimCooldown(id, "966500000077", plus(t0, 2_000), MINUTE)).toEqual(Option.some(59))
        // Another account's release does not touch it either.
        const other = yield* newAccount(0)
        yield* ledger.releaseCooldown(other, "966500000077", t1)
        expect(yield* ledger.claimCooldown(id, "966500000077", plus(t0, 2_000), MINUTE)).toEqual(Option.some(59))
      }))
  })

reservationContract("OTP reservations on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  reservationContract("OTP reservations on PostgreSQL", onDatabase(TestDatabase.postgres))
})
