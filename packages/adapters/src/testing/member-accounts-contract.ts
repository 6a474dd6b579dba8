/**
 * The contract suite of what a user's several accounts, their settings and e-mail links store
 * (documented on `memberAccountsContract`).
 */
import { assert, layer } from "@effect/vitest"
import { AccountRepository, CurrentUserReader, EmailTokenRepository, UserRepository } from "@wasl/core/Accounts"
import { SessionRepository, TwoFactorLoginRepository } from "@wasl/core/Auth"
import { ValidationFailed } from "@wasl/core/Errors"
import { DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { EMAIL_TAKEN } from "../repository-semantics.ts"

/** What the layer under `memberAccountsContract` provides. */
export type MemberAccountsContractServices =
  | AccountRepository
  | UserRepository
  | SessionRepository
  | TwoFactorLoginRepository
  | EmailTokenRepository
  | CurrentUserReader

let sequence = 0
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${(sequence++).toString(36)}.${Math.random().toString(36).slice(2, 8)}`
const hash = (label: string) => unique(label).replace(/[^a-z0-9]/g, "").padEnd(64, "0").slice(0, 64)

const newUser = Effect.gen(function*() {
  const users = yield* UserRepository
  return yield* Effect.orDie(
    users.create({ email: `${unique("member")}@example.com`, passwordHash: "scrypt$x", firstname: "A", lastname: "B" })
  )
})

const newAccount = Effect.flatMap(AccountRepository, (accounts) =>
  accounts.create({ name: "Acme", plan: "free", webhookLimit: null, otpCredits: 0 }))

const T0 = DateTime.makeUnsafe("2032-03-04T05:06:07.000Z")

/**
 * The contract over every implementation (memory, PGlite, PostgreSQL, or yours):
 *
 * - `AccountRepository.setSettings` replaces the settings and shows in the current user's parts;
 *   an unknown account is NotFound;
 * - `UserRepository.setMemberPreferences` replaces one membership's own settings (not the
 *   user's other memberships); `touchMembershipUnlessSince` moves `last_used` only when it is
 *   older than the bound;
 * - `setChangeEmailTo`, `setEmail` (an address another user has, case-insensitively, is a
 *   ValidationFailed on `email` and changes nothing) and `markEmailVerified` (only while the
 *   address is still the user's);
 * - `SessionRepository.switchAccount` moves a session to another membership of its user;
 * - `TwoFactorLoginRepository.removeOfUser` ends the user's pending logins only;
 * - `EmailTokenRepository`: `take` answers a token once, for its purpose only; a new token of a
 *   purpose replaces the user's earlier one of that purpose, not of the other.
 *
 * Each test makes its own users and accounts, so the suite can share a database with others.
 *
 * @param name The name of the `describe` block.
 * @param implementation Provides the ports under test.
 */
export const memberAccountsContract = <E>(
  name: string,
  implementation: Layer.Layer<MemberAccountsContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("setSettings replaces the account's settings; an unknown account is NotFound", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const account = yield* newAccount
        const settings = {
          name: "Acme Arabia",
          industry: "Retail",
          logo: "https://example.com/logo.png",
          address: "King Fahd Road, Riyadh",
          timeZone: "Asia/Riyadh",
          calendar: "islamic-umalqura",
          hour12: true,
          locale: "ar-SA",
          currency: "SAR"
        }
        const updated = yield* accounts.setSettings(account.id, settings)
        assert.deepInclude(updated, { id: account.id, ...settings })
        assert.deepInclude(Option.getOrThrow(yield* accounts.findById(account.id)), settings)
        const cleared = yield* accounts.setSettings(account.id, { ...settings, industry: null, hour12: null, currency: null })
        assert.isNull(cleared.industry)
        assert.isNull(cleared.hour12)
        assert.isNull(cleared.currency)
        const missing = yield* Effect.exit(accounts.setSettings(account.id + 1_000_000, settings))
        assert.isTrue(Exit.isFailure(missing))
      }))

    it.effect("setMemberPreferences changes one membership; touchMembershipUnlessSince moves last_used only past its bound", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const user = yield* newUser
        const first = yield* newAccount
        const second = yield* newAccount
        yield* users.addMembership(first.id, user.id)
        yield* users.addMembership(second.id, user.id)
        const preferences = { timeZone: "Europe/Paris", calendar: "gregory", hour12: true, locale: "fr-FR", currency: "EUR" }
        const changed = Option.getOrThrow(yield* users.setMemberPreferences(first.id, user.id, preferences))
        assert.deepInclude(changed, { account_id: first.id, user_id: user.id, ...preferences })
        assert.deepInclude(Option.getOrThrow(yield* users.findMembership(first.id, user.id)), preferences)
        assert.deepInclude(Option.getOrThrow(yield* users.findMembership(second.id, user.id)), {
          timeZone: "UTC",
          hour12: false,
          locale: null
        })
        assert.isTrue(Option.isNone(yield* users.setMemberPreferences(first.id, user.id + 1_000_000, preferences)))

        yield* TestClock.setTime(DateTime.toEpochMillis(T0))
        yield* users.touchMembershipUnlessSince(first.id, user.id, DateTime.subtract(T0, { minutes: 1 }))
        const lastUsed = () => Effect.map(users.findMembership(first.id, user.id), (m) => Option.getOrThrow(m).last_used)
        assert.strictEqual(yield* lastUsed(), "2032-03-04 05:06:07")
        yield* TestClock.adjust(Duration.seconds(30))
        const now = yield* DateTime.now
        yield* users.touchMembershipUnlessSince(first.id, user.id, DateTime.subtract(now, { minutes: 1 }))
        assert.strictEqual(yield* lastUsed(), "2032-03-04 05:06:07")
        yield* TestClock.adjust(Duration.seconds(31))
        const later = yield* DateTime.now
        yield* users.touchMembershipUnlessSince(first.id, user.id, DateTime.subtract(later, { minutes: 1 }))
        assert.strictEqual(yield* lastUsed(), "2032-03-04 05:07:08")
      }).pipe(Effect.provide(TestClock.layer())))

    it.effect("setChangeEmailTo, setEmail (never another user's address) and markEmailVerified (only the current address)", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const user = yield* newUser
        const other = yield* newUser
        const wanted = `${unique("new")}@example.com`
        yield* users.setChangeEmailTo(user.id, wanted)
        assert.strictEqual(Option.getOrThrow(yield* users.findById(user.id)).change_email_to, wanted)

        const taken = yield* Effect.flip(users.setEmail(user.id, other.email.toUpperCase(), T0))
        assert.instanceOf(taken, ValidationFailed)
        assert.deepStrictEqual(taken.errors, { email: [EMAIL_TAKEN] })
        assert.strictEqual(Option.getOrThrow(yield* users.findById(user.id)).email, user.email)

        const changed = Option.getOrThrow(yield* users.setEmail(user.id, wanted, T0))
        assert.strictEqual(changed.email, wanted)
        assert.strictEqual(DateTime.formatIso(changed.email_verified_at!), "2032-03-04T05:06:07.000Z")
        assert.isNull(changed.change_email_to)
        assert.isTrue(Option.isSome(yield* users.findByEmail(wanted)))
        assert.isTrue(Option.isNone(yield* users.findByEmail(user.email)))
        assert.isTrue(Option.isNone(yield* users.setEmail(user.id + 1_000_000, `${unique("nobody")}@example.com`, T0)))

        assert.isFalse(yield* users.markEmailVerified(other.id, `${unique("gone")}@example.com`, T0))
        assert.isNull(Option.getOrThrow(yield* users.findById(other.id)).email_verified_at)
        assert.isTrue(yield* users.markEmailVerified(other.id, other.email.toUpperCase(), T0))
        assert.isNotNull(Option.getOrThrow(yield* users.findById(other.id)).email_verified_at)
      }))

    it.effect("switchAccount moves a session to another account of its user; an unknown session is false", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const sessions = yield* SessionRepository
        const user = yield* newUser
        const first = yield* newAccount
        const second = yield* newAccount
        yield* users.addMembership(first.id, user.id)
        yield* users.addMembership(second.id, user.id)
        const idHash = hash("session")
        const expiresAt = DateTime.add(DateTime.nowUnsafe(), { days: 1 })
        yield* sessions.create({ idHash, accountId: first.id, userId: user.id, expiresAt })
        assert.isTrue(yield* sessions.switchAccount(idHash, second.id))
        assert.strictEqual(Option.getOrThrow(yield* sessions.find(idHash)).accountId, second.id)
        assert.isFalse(yield* sessions.switchAccount(hash("none"), second.id))
      }))

    it.effect("removeOfUser ends every pending two-factor login of the user, and no one else's", () =>
      Effect.gen(function*() {
        const logins = yield* TwoFactorLoginRepository
        const user = yield* newUser
        const other = yield* newUser
        const expiresAt = DateTime.add(DateTime.nowUnsafe(), { minutes: 5 })
        const mine = [hash("mine"), hash("mine")]
        const theirs = hash("theirs")
        for (const idHash of mine) yield* logins.create({ idHash, userId: user.id, expiresAt })
        yield* logins.create({ idHash: theirs, userId: other.id, expiresAt })
        yield* logins.removeOfUser(user.id)
        for (const idHash of mine) assert.isTrue(Option.isNone(yield* logins.claimAttempt(idHash, 5)))
        assert.isTrue(Option.isSome(yield* logins.claimAttempt(theirs, 5)))
      }))

    it.effect("an e-mail token is taken once, for its purpose only; a newer one of a purpose replaces the older", () =>
      Effect.gen(function*() {
        const tokens = yield* EmailTokenRepository
        const user = yield* newUser
        const expiresAt = DateTime.add(T0, { hours: 24 })
        const first = { tokenHash: hash("first"), userId: user.id, purpose: "change" as const, email: "a@example.com", expiresAt }
        yield* tokens.create(first)
        assert.isTrue(Option.isNone(yield* tokens.take(first.tokenHash, "verify")))
        const taken = Option.getOrThrow(yield* tokens.take(first.tokenHash, "change"))
        assert.strictEqual(taken.userId, user.id)
        assert.strictEqual(taken.email, "a@example.com")
        assert.strictEqual(DateTime.formatIso(taken.expiresAt), "2032-03-05T05:06:07.000Z")
        assert.isTrue(Option.isNone(yield* tokens.take(first.tokenHash, "change")))

        const older = { ...first, tokenHash: hash("older") }
        const verify = { ...first, tokenHash: hash("verify"), purpose: "verify" as const }
        const newer = { ...first, tokenHash: hash("newer"), email: "b@example.com" }
        yield* tokens.create(older)
        yield* tokens.create(verify)
        yield* tokens.create(newer)
        assert.isTrue(Option.isNone(yield* tokens.take(older.tokenHash, "change")))
        assert.strictEqual(Option.getOrThrow(yield* tokens.take(newer.tokenHash, "change")).email, "b@example.com")
        assert.isTrue(Option.isSome(yield* tokens.take(verify.tokenHash, "verify")))
      }))

    it.effect("two concurrent takes of one token: exactly one gets it", () =>
      Effect.gen(function*() {
        const tokens = yield* EmailTokenRepository
        const user = yield* newUser
        const tokenHash = hash("race")
        yield* tokens.create({ tokenHash, userId: user.id, purpose: "verify", email: user.email, expiresAt: T0 })
        const outcomes = yield* Effect.all([tokens.take(tokenHash, "verify"), tokens.take(tokenHash, "verify")], {
          concurrency: "unbounded"
        })
        assert.strictEqual(outcomes.filter(Option.isSome).length, 1)
      }))
  })
