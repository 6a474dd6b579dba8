/** The contract suite of `OtpLedger` (documented on `otpLedgerContract`). */
import { expect, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { OtpLedger } from "@wasl/core/Otp"
import { DateTime, Duration, Effect, type Layer, Option } from "effect"
import { accountOf, accountWithCredits, atTime, creditsOf, plusMillis } from "./otp-fixtures.ts"

/** What the layer under `otpLedgerContract` provides. */
export type OtpLedgerContractServices = OtpLedger | AccountRepository | Transactor

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.000Z")
const MINUTE = Duration.seconds(60)
const plus = (ms: number) => plusMillis(T0, ms)

/**
 * The `OtpLedger` contract: the same tests over every implementation (memory, PGlite,
 * PostgreSQL, or yours).
 *
 * - Credits are taken one at a time and never below zero, also when charges race, inside
 *   transactions or not; a charge stamps the account with the Clock's time.
 * - The cooldown is claimed atomically per account and recipient: a second claim within the
 *   cooldown gets the whole seconds left (at least 1), a claim exactly one cooldown later passes,
 *   and of racing claims exactly one passes.
 * - A released claim frees the recipient, unless a later claim has replaced it.
 * - `lockRecipient` holds a claimed recipient until the caller's transaction ends, so transactions
 *   that take it run one after another.
 *
 * Every test makes its own accounts and never assumes an empty store.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `OtpLedger` (under test), `AccountRepository` and `Transactor`.
 */
export const otpLedgerContract = <E>(name: string, implementation: Layer.Layer<OtpLedgerContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("takes one credit per charge and refuses at zero, leaving the balance at zero", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const id = yield* accountWithCredits(2)
        expect(yield* ledger.chargeCredit(id)).toBe(true)
        expect(yield* ledger.chargeCredit(id)).toBe(true)
        expect(yield* ledger.chargeCredit(id)).toBe(false)
        expect(yield* creditsOf(id)).toBe(0)
        expect(yield* ledger.chargeCredit(987_654_321)).toBe(false)
      }))

    it.effect("stamps the charged account with the Clock's time, and leaves a refused one as it was", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const id = yield* accountWithCredits(1)
        expect(yield* atTime(T0, ledger.chargeCredit(id))).toBe(true)
        const charged = yield* accountOf(id)
        expect(DateTime.formatIso(charged.updated_at)).toBe("2031-02-03T04:05:06.000Z")
        expect(yield* atTime(plus(1_000), ledger.chargeCredit(id))).toBe(false)
        expect(yield* accountOf(id)).toEqual(charged)
      }))

    it.effect("never goes below zero when charges race, alone or each in its own transaction", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const transactor = yield* Transactor
        const alone = yield* accountWithCredits(3)
        const results = yield* Effect.all(Array.from({ length: 20 }, () => ledger.chargeCredit(alone)), {
          concurrency: "unbounded"
        })
        expect(results.filter((ok) => ok)).toHaveLength(3)
        expect(yield* creditsOf(alone)).toBe(0)

        const inTransactions = yield* accountWithCredits(4)
        const charged = yield* Effect.all(
          Array.from({ length: 12 }, () => transactor.transaction(ledger.chargeCredit(inTransactions))),
          { concurrency: "unbounded" }
        )
        expect(charged.filter((ok) => ok)).toHaveLength(4)
        expect(yield* creditsOf(inTransactions)).toBe(0)
      }))

    it.effect("claims a recipient once per cooldown and says how many seconds are left", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const id = yield* accountWithCredits(0)
        expect(yield* ledger.claimCooldown(id, "966500000001", T0, MINUTE)).toEqual(Option.none())
        expect(yield* ledger.claimCooldown(id, "966500000001", T0, MINUTE)).toEqual(Option.some(60))
        expect(yield* ledger.claimCooldown(id, "966500000001", plus(20_000), MINUTE)).toEqual(Option.some(40))
        expect(yield* ledger.claimCooldown(id, "966500000001", plus(59_500), MINUTE)).toEqual(Option.some(1))
        // Another recipient, and the same recipient in another account, are free.
        expect(yield* ledger.claimCooldown(id, "966500000002", plus(1), MINUTE)).toEqual(Option.none())
        const other = yield* accountWithCredits(0)
        expect(yield* ledger.claimCooldown(other, "966500000001", plus(1), MINUTE)).toEqual(Option.none())
        // At exactly one cooldown later it is claimable again, and the new claim starts a new cooldown.
        expect(yield* ledger.claimCooldown(id, "966500000001", plus(60_000), MINUTE)).toEqual(Option.none())
        expect(yield* ledger.claimCooldown(id, "966500000001", plus(60_001), MINUTE)).toEqual(Option.some(60))
        // The cooldown is the caller's: a shorter one lets the same recipient through sooner.
        expect(yield* ledger.claimCooldown(id, "966500000001", plus(61_000), Duration.seconds(1))).toEqual(Option.none())
      }))

    it.effect("lets exactly one of racing claims through", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const id = yield* accountWithCredits(0)
        const results = yield* Effect.all(
          Array.from({ length: 10 }, () => ledger.claimCooldown(id, "966500000009", T0, MINUTE)),
          { concurrency: "unbounded" }
        )
        expect(results.filter(Option.isNone)).toHaveLength(1)
      }))

    it.effect("releases a cooldown claim unless a later send claimed the recipient since", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const t0 = DateTime.makeUnsafe("2034-01-01T00:00:00.000Z")
        const id = yield* accountWithCredits(0)
        expect(yield* ledger.claimCooldown(id, "966500000077", t0, MINUTE)).toEqual(Option.none())
        yield* ledger.releaseCooldown(id, "966500000077", t0)
        const t1 = plusMillis(t0, 1_000)
        expect(yield* ledger.claimCooldown(id, "966500000077", t1, MINUTE)).toEqual(Option.none())
        // A stale release (the first claim's time) leaves the later claim in place.
        yield* ledger.releaseCooldown(id, "966500000077", t0)
        expect(yield* ledger.claimCooldown(id, "966500000077", plusMillis(t0, 2_000), MINUTE)).toEqual(Option.some(59))
        // Another account's release does not touch it either; releasing what was never claimed is a no-op.
        const other = yield* accountWithCredits(0)
        yield* ledger.releaseCooldown(other, "966500000077", t1)
        yield* ledger.releaseCooldown(id, "966500000078", t1)
        expect(yield* ledger.claimCooldown(id, "966500000077", plusMillis(t0, 2_000), MINUTE)).toEqual(Option.some(59))
      }))

    it.effect("holds a claimed recipient for the caller's transaction: transactions taking it run one after another", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const transactor = yield* Transactor
        const id = yield* accountWithCredits(0)
        expect(yield* ledger.claimCooldown(id, "966500000055", T0, MINUTE)).toEqual(Option.none())
        const trace: Array<string> = []
        yield* Effect.all(
          Array.from({ length: 4 }, (_, i) =>
            transactor.transaction(Effect.gen(function*() {
              yield* ledger.lockRecipient(id, "966500000055")
              trace.push(`in ${i}`)
              // Long enough for the others to reach the lock, were it not held.
              yield* Effect.sleep(Duration.millis(25))
              trace.push(`out ${i}`)
            }))),
          { concurrency: "unbounded" }
        )
        expect(trace).toHaveLength(8)
        for (let k = 0; k < trace.length; k += 2) {
          expect(trace[k + 1]).toBe(trace[k]!.replace("in", "out"))
        }
        // Locking an unclaimed recipient, or outside a transaction, is allowed and changes nothing.
        yield* ledger.lockRecipient(id, "966500000056")
        expect(yield* ledger.claimCooldown(id, "966500000056", T0, MINUTE)).toEqual(Option.none())
      }))
  })
