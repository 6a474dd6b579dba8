/** The contract suite of `TwoFactorRepository` and `TwoFactorLoginRepository` (documented on `twoFactorContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository, CurrentUserReader, UserRepository } from "@wasl/core/Accounts"
import { TwoFactorLoginRepository, TwoFactorRepository } from "@wasl/core/Auth"
import { DateTime, Duration, Effect, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"

/** What the layer under `twoFactorContract` provides. */
export type TwoFactorContractServices =
  | TwoFactorRepository
  | TwoFactorLoginRepository
  | UserRepository
  | AccountRepository
  | CurrentUserReader

let sequence = 0
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${(sequence++).toString(36)}.${Math.random().toString(36).slice(2, 8)}`

const newUser = Effect.gen(function*() {
  const users = yield* UserRepository
  return yield* Effect.orDie(
    users.create({ email: `${unique("2fa")}@example.com`, passwordHash: "scrypt$x", firstname: "A", lastname: "B" })
  )
})

const T0 = DateTime.makeUnsafe("2032-03-04T05:06:07.890Z")
const hash = (label: string) => unique(label).replace(/[^a-z0-9]/g, "").padEnd(64, "0").slice(0, 64)
const iso = (time: DateTime.Utc | null) => time === null ? null : DateTime.formatIso(time)

const confirmation = (sealedSecret: string, step = 100) => ({
  sealedSecret,
  confirmedAt: T0,
  step,
  recoveryCodeHashes: [hash("a"), hash("b")]
})

/**
 * The contract of the two-factor ports over every implementation (memory, PGlite, PostgreSQL, or
 * yours):
 *
 * - a new user has two-factor off and nothing stored; `begin` stores a secret (in place of an
 *   unconfirmed one) and is refused once two-factor is on;
 * - `confirm` turns it on only for the stored secret, and shows on the user
 *   (`two_factor_confirmed_at`, in `findById` and in the current user's parts);
 * - `useStep` takes only a step later than the last, concurrently once; a recovery code is used
 *   once, concurrently too; `disable` clears everything;
 * - pending logins: attempts counted up to the limit, concurrently never past it, removed, and a
 *   user's expired ones removed when a new one is made.
 *
 * Each test makes its own users, so the suite can share a database with others.
 *
 * @param name The name of the `describe` block.
 * @param implementation Provides the two ports under test and `UserRepository`,
 *   `AccountRepository` and `CurrentUserReader` (to make users and read them back).
 */
export const twoFactorContract = <E>(name: string, implementation: Layer.Layer<TwoFactorContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("a new user has two-factor off; begin stores a secret, replacing an unconfirmed one", () =>
      Effect.gen(function*() {
        const repository = yield* TwoFactorRepository
        const user = yield* newUser
        assert.strictEqual(user.two_factor_confirmed_at, null)
        assert.deepStrictEqual(Option.getOrThrow(yield* repository.find(user.id)), {
          sealedSecret: null,
          confirmedAt: null,
          recoveryCodeHashes: [],
          lastUsedStep: null
        })
        assert.isTrue(yield* repository.begin(user.id, "v1.first"))
        assert.isTrue(yield* repository.begin(user.id, "v1.second"))
        const state = Option.getOrThrow(yield* repository.find(user.id))
        assert.strictEqual(state.sealedSecret, "v1.second")
        assert.strictEqual(state.confirmedAt, null)
        assert.isTrue(Option.isNone(yield* repository.find(user.id + 1_000_000)))
        assert.isFalse(yield* repository.begin(user.id + 1_000_000, "v1.nobody"))
      }))

    it.effect("confirm turns it on for the stored secret only, and the user shows it", () =>
      Effect.gen(function*() {
        const repository = yield* TwoFactorRepository
        const user = yield* newUser
        yield* repository.begin(user.id, "v1.current")
        assert.isFalse(yield* repository.confirm(user.id, confirmation("v1.stale")))
        assert.isTrue(yield* repository.confirm(user.id, confirmation("v1.current", 123)))
        const state = Option.getOrThrow(yield* repository.find(user.id))
        assert.strictEqual(iso(state.confirmedAt), "2032-03-04T05:06:07.890Z")
        assert.strictEqual(state.lastUsedStep, 123)
        assert.strictEqual(state.recoveryCodeHashes.length, 2)
        assert.strictEqual(iso(Option.getOrThrow(yield* (yield* UserRepository).findById(user.id)).two_factor_confirmed_at), "2032-03-04T05:06:07.890Z")
        // A second confirmation, or a new enrolment, is refused while it is on.
        assert.isFalse(yield* repository.confirm(user.id, confirmation("v1.current")))
        assert.isFalse(yield* repository.begin(user.id, "v1.other"))
        assert.strictEqual(Option.getOrThrow(yield* repository.find(user.id)).sealedSecret, "v1.current")
        // The current user's parts carry it.
        const account = yield* (yield* AccountRepository).create({ name: "2fa", plan: "free", webhookLimit: null, otpCredits: 0 })
        yield* (yield* UserRepository).addMembership(account.id, user.id)
        const parts = Option.getOrThrow(yield* (yield* CurrentUserReader).read(account.id, user.id))
        assert.strictEqual(iso(parts.user.two_factor_confirmed_at), "2032-03-04T05:06:07.890Z")
      }))

    it.effect("takes only a step later than the last used, once under concurrency", () =>
      Effect.gen(function*() {
        const repository = yield* TwoFactorRepository
        const user = yield* newUser
        yield* repository.begin(user.id, "v1.s")
        yield* repository.confirm(user.id, confirmation("v1.s", 100))
        assert.isFalse(yield* repository.useStep(user.id, 100))
        assert.isFalse(yield* repository.useStep(user.id, 99))
        const taken = yield* Effect.all(Array.from({ length: 8 }, () => repository.useStep(user.id, 101)), { concurrency: "unbounded" })
        assert.strictEqual(taken.filter(Boolean).length, 1)
        assert.strictEqual(Option.getOrThrow(yield* repository.find(user.id)).lastUsedStep, 101)
        assert.isTrue(yield* repository.useStep(user.id, 103))
      }))

    it.effect("uses a recovery code once, once under concurrency, and no other user's", () =>
      Effect.gen(function*() {
        const repository = yield* TwoFactorRepository
        const user = yield* newUser
        const other = yield* newUser
        yield* repository.begin(user.id, "v1.s")
        const confirmed = confirmation("v1.s")
        yield* repository.confirm(user.id, confirmed)
        const [first, second] = confirmed.recoveryCodeHashes
        assert.isFalse(yield* repository.useRecoveryCode(other.id, first!))
        const used = yield* Effect.all(Array.from({ length: 8 }, () => repository.useRecoveryCode(user.id, first!)), {
          concurrency: "unbounded"
        })
        assert.strictEqual(used.filter(Boolean).length, 1)
        assert.deepStrictEqual(Option.getOrThrow(yield* repository.find(user.id)).recoveryCodeHashes, [second])
        assert.isFalse(yield* repository.useRecoveryCode(user.id, hash("unknown")))
      }))

    it.effect("disable clears the secret, the confirmation, the codes and the step", () =>
      Effect.gen(function*() {
        const repository = yield* TwoFactorRepository
        const user = yield* newUser
        yield* repository.begin(user.id, "v1.s")
        yield* repository.confirm(user.id, confirmation("v1.s"))
        yield* repository.disable(user.id)
        assert.deepStrictEqual(Option.getOrThrow(yield* repository.find(user.id)), {
          sealedSecret: null,
          confirmedAt: null,
          recoveryCodeHashes: [],
          lastUsedStep: null
        })
        assert.strictEqual(Option.getOrThrow(yield* (yield* UserRepository).findById(user.id)).two_factor_confirmed_at, null)
        assert.isTrue(yield* repository.begin(user.id, "v1.again"))
      }))

    it.effect("counts a pending login's attempts up to the limit, concurrently never past it", () =>
      Effect.gen(function*() {
        const logins = yield* TwoFactorLoginRepository
        const user = yield* newUser
        const idHash = hash("login")
        const expiresAt = DateTime.makeUnsafe("2040-01-02T03:04:05.678Z")
        assert.isTrue(Option.isNone(yield* logins.claimAttempt(idHash, 5)))
        yield* logins.create({ idHash, userId: user.id, expiresAt })
        const first = Option.getOrThrow(yield* logins.claimAttempt(idHash, 5))
        assert.deepStrictEqual({ ...first, expiresAt: iso(first.expiresAt) }, {
          idHash,
          userId: user.id,
          expiresAt: "2040-01-02T03:04:05.678Z",
          attempts: 1
        })
        const rest = yield* Effect.all(Array.from({ length: 10 }, () => logins.claimAttempt(idHash, 5)), { concurrency: "unbounded" })
        assert.deepStrictEqual(rest.filter(Option.isSome).map((claimed) => claimed.value.attempts).sort(), [2, 3, 4, 5])
        assert.isTrue(Option.isNone(yield* logins.claimAttempt(idHash, 5)))
        yield* logins.remove(idHash)
        yield* logins.remove(idHash)
        assert.isTrue(Option.isNone(yield* logins.claimAttempt(idHash, 10)))
      }))

    it.effect("a new pending login removes the user's expired ones, not the live ones or another user's", () =>
      Effect.gen(function*() {
        const logins = yield* TwoFactorLoginRepository
        const user = yield* newUser
        const other = yield* newUser
        yield* TestClock.setTime(DateTime.toEpochMillis(T0))
        const expired = hash("expired")
        const live = hash("live")
        const othersExpired = hash("others")
        yield* logins.create({ idHash: expired, userId: user.id, expiresAt: DateTime.subtract(T0, { seconds: 1 }) })
        yield* logins.create({ idHash: live, userId: user.id, expiresAt: DateTime.add(T0, { minutes: 5 }) })
        yield* logins.create({ idHash: othersExpired, userId: other.id, expiresAt: DateTime.subtract(T0, { seconds: 1 }) })
        yield* logins.create({ idHash: hash("new"), userId: user.id, expiresAt: DateTime.add(T0, { minutes: 5 }) })
        assert.isTrue(Option.isNone(yield* logins.claimAttempt(expired, 5)))
        assert.isTrue(Option.isSome(yield* logins.claimAttempt(live, 5)))
        assert.isTrue(Option.isSome(yield* logins.claimAttempt(othersExpired, 5)))
      }).pipe(Effect.provide(TestClock.layer())))
  })
