/**
 * The OTP ledger on PGlite and PostgreSQL (spec §4.2 rules 8 and 9, §7 402/429; decisions §7
 * cooldown per account and recipient): credits taken one at a time and never below zero, even
 * when raced; the cooldown claimed atomically, with the seconds left, per account and recipient.
 */
import { describe, expect, layer } from "@effect/vitest"
import type { PgClient } from "@effect/sql-pg"
import { AccountRepository, OtpLedger } from "@wasl/core"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { MigrationsLive } from "../../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../../src/db/test-database.ts"
import { RepositoriesPg } from "../../src/pg/index.ts"

const onDatabase = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  RepositoriesPg.pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provideMerge(database)
  )

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.000Z")
const MINUTE = Duration.seconds(60)
const plus = (ms: number) => DateTime.add(T0, { milliseconds: ms })

const newAccount = (otpCredits: number) =>
  AccountRepository.use((accounts) =>
    accounts.create({ name: "Ledger", plan: "business", webhookLimit: null, otpCredits }).pipe(Effect.map((a) => a.id))
  )

const balance = (id: number) =>
  AccountRepository.use((accounts) => accounts.findById(id)).pipe(Effect.map((a) => Option.getOrThrow(a).otp_credits))

const ledgerContract = <E>(name: string, implementation: Layer.Layer<OtpLedger | AccountRepository, E>) =>
  layer(implementation, { timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("takes one credit per charge and refuses at zero, leaving the balance at zero", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const id = yield* newAccount(2)
        expect(yield* ledger.chargeCredit(id)).toBe(true)
        expect(yield* ledger.chargeCredit(id)).toBe(true)
        expect(yield* ledger.chargeCredit(id)).toBe(false)
        expect(yield* balance(id)).toBe(0)
      }))

    it.effect("never goes below zero when charges race", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const id = yield* newAccount(3)
        const results = yield* Effect.all(Array.from({ length: 20 }, () => ledger.chargeCredit(id)), { concurrency: "unbounded" })
        expect(results.filter((ok) => ok)).toHaveLength(3)
        expect(yield* balance(id)).toBe(0)
      }))

    it.effect("claims a recipient once per cooldown and says how many seconds are left", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const id = yield* newAccount(0)
        expect(yield* ledger.claimCooldown(id, "966500000001", T0, MINUTE)).toEqual(Option.none())
        expect(yield* ledger.claimCooldown(id, "966500000001", T0, MINUTE)).toEqual(Option.some(60))
        expect(yield* ledger.claimCooldown(id, "966500000001", plus(59_500), MINUTE)).toEqual(Option.some(1))
        // Another recipient, and the same recipient in another account, are free.
        expect(yield* ledger.claimCooldown(id, "966500000002", plus(1), MINUTE)).toEqual(Option.none())
        const other = yield* newAccount(0)
        expect(yield* ledger.claimCooldown(other, "966500000001", plus(1), MINUTE)).toEqual(Option.none())
        // At exactly one cooldown later it is claimable again, and the new claim starts a new cooldown.
        expect(yield* ledger.claimCooldown(id, "966500000001", plus(60_000), MINUTE)).toEqual(Option.none())
        expect(yield* ledger.claimCooldown(id, "966500000001", plus(60_001), MINUTE)).toEqual(Option.some(60))
      }))

    it.effect("lets exactly one of racing claims through", () =>
      Effect.gen(function*() {
        const ledger = yield* OtpLedger
        const id = yield* newAccount(0)
        const results = yield* Effect.all(
          Array.from({ length: 10 }, () => ledger.claimCooldown(id, "966500000009", T0, MINUTE)),
          { concurrency: "unbounded" }
        )
        expect(results.filter(Option.isNone)).toHaveLength(1)
      }))
  })

ledgerContract("OTP ledger on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  ledgerContract("OTP ledger on PostgreSQL", onDatabase(TestDatabase.postgres))
})
