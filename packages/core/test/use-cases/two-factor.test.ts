/**
 * Two-factor authentication: enrolment, confirmation, the login's second step (codes from the
 * `otpauth` package as the user's authenticator app), replay, attempts, expiry, recovery codes and
 * turning it off.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import * as OTPAuth from "otpauth"
import { currentUser } from "../../src/Accounts.ts"
import {
  authenticateSession,
  beginTwoFactor,
  completeTwoFactorLogin,
  confirmTwoFactor,
  disableTwoFactor,
  login,
  SecretBox,
  TokenHasher,
  TWO_FACTOR_LOGIN_LIFETIME,
  TwoFactorRepository
} from "../../src/Auth.ts"
import { type Unauthenticated, type ValidationFailed } from "../../src/errors.ts"
import { NOW, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { memoryState } from "../support/store.ts"

const Ports = () => SecretBox.layerAesGcm(new Uint8Array(32).fill(3)).pipe(Layer.provideMerge(TestPorts()))

const STEP = 30_000

/** The owner with two-factor on; the authenticator, the recovery codes and the ids. */
const enrolled = Effect.gen(function*() {
  const created = yield* setup()
  const { secret } = yield* beginTwoFactor(created.user_id)
  const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) })
  const codeAt = (offset = 0) => app.generate({ timestamp: NOW + offset })
  const recoveryCodes = yield* confirmTwoFactor(created.user_id, codeAt())
  return { ...created, secret, codeAt, recoveryCodes }
})

/** The challenge of the owner's password step, which must ask for a second factor. */
const passwordStep = Effect.gen(function*() {
  const result = yield* login(OWNER.email, OWNER.password)
  if (result._tag !== "TwoFactorRequired") return assert.fail("login opened a session without the second factor")
  return result.challenge
})

// The field messages of a refusal (none for any other failure).
const messages = (error: ValidationFailed | Unauthenticated) => error._tag === "ValidationFailed" ? error.errors : {}

describe("two-factor enrolment", () => {
  it.effect("begins with a new Base32 secret sealed at rest, and an otpauth:// URI for the user's e-mail", () =>
    Effect.gen(function*() {
      const { user_id, principal } = yield* setup()
      const { secret, otpauth_uri } = yield* beginTwoFactor(user_id)
      assert.match(secret, /^[A-Z2-7]{32}$/)
      const parsed = OTPAuth.URI.parse(otpauth_uri)
      assert.strictEqual(parsed.issuer, "Wasl")
      assert.strictEqual(parsed.label, OWNER.email)
      assert.strictEqual(parsed.secret.base32, secret)
      const state = Option.getOrThrow(yield* (yield* TwoFactorRepository).find(user_id))
      assert.notStrictEqual(state.sealedSecret, secret)
      assert.notInclude(state.sealedSecret!, secret)
      assert.deepStrictEqual(yield* (yield* SecretBox).open(state.sealedSecret!), Option.some(secret))
      // Not on until confirmed.
      assert.isNull(state.confirmedAt)
      assert.isFalse((yield* currentUser(principal)).has2FA)
      assert.strictEqual((yield* login(OWNER.email, OWNER.password))._tag, "Session")
    }).pipe(Effect.provide(Ports())))

  it.effect("a code of the app turns it on and answers 8 recovery codes, stored only as hashes", () =>
    Effect.gen(function*() {
      const { user_id, principal, recoveryCodes } = yield* enrolled
      assert.strictEqual(recoveryCodes.length, 8)
      assert.strictEqual(new Set(recoveryCodes).size, 8)
      for (const code of recoveryCodes) assert.match(code, /^[a-z0-9]{5}-[a-z0-9]{5}$/)
      const state = Option.getOrThrow(yield* (yield* TwoFactorRepository).find(user_id))
      const hasher = yield* TokenHasher
      assert.deepStrictEqual(state.recoveryCodeHashes, yield* Effect.forEach(recoveryCodes, hasher.hash))
      const me = yield* currentUser(principal)
      assert.isTrue(me.has2FA)
      assert.strictEqual(DateTime.toEpochMillis(me.two_factor_confirmed_at!), NOW)
      assert.notInclude(JSON.stringify([...(yield* memoryState).users.values()]), recoveryCodes[0]!)
    }).pipe(Effect.provide(Ports())))

  it.effect("a wrong code, or none begun, is refused on code; a second enrolment while on on two_factor", () =>
    Effect.gen(function*() {
      const { user_id } = yield* setup()
      const notBegun = yield* Effect.flip(confirmTwoFactor(user_id, "123456"))
      assert.deepStrictEqual(Object.keys(messages(notBegun)), ["code"])
      const { secret } = yield* beginTwoFactor(user_id)
      const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) })
      const wrong = String((Number(app.generate({ timestamp: NOW })) + 1) % 1_000_000).padStart(6, "0")
      const refused = yield* Effect.flip(confirmTwoFactor(user_id, wrong))
      assert.deepStrictEqual(messages(refused), { code: ["The code is invalid."] })
      // A code from two steps away is outside the window.
      const stale = yield* Effect.flip(confirmTwoFactor(user_id, app.generate({ timestamp: NOW - 2 * STEP })))
      assert.deepStrictEqual(messages(stale), { code: ["The code is invalid."] })
      yield* confirmTwoFactor(user_id, app.generate({ timestamp: NOW }))
      const again = yield* Effect.flip(beginTwoFactor(user_id))
      assert.deepStrictEqual(Object.keys(messages(again)), ["two_factor"])
    }).pipe(Effect.provide(Ports())))
})

describe("login with two-factor on", () => {
  it.effect("the password step opens no session; a code of the app completes it as a login does", () =>
    Effect.gen(function*() {
      const { account_id, user_id, codeAt } = yield* enrolled
      yield* TestClock.adjust(Duration.millis(STEP))
      const challenge = yield* passwordStep
      assert.match(challenge, /^[A-Za-z0-9]{40}$/)
      assert.strictEqual((yield* memoryState).sessions.size, 0)
      // The challenge is stored only as its hash.
      assert.isFalse((yield* memoryState).twoFactorLogins.has(challenge))
      const session = yield* completeTwoFactorLogin(challenge, { code: codeAt(STEP) })
      assert.strictEqual(session.user.id, user_id)
      assert.strictEqual(session.user.account.id, account_id)
      assert.isTrue(session.user.has2FA)
      const principal = yield* authenticateSession(session.cookie)
      assert.strictEqual(principal.userId, user_id)
      // The pending login is used up.
      assert.strictEqual((yield* memoryState).twoFactorLogins.size, 0)
      const reused = yield* Effect.flip(completeTwoFactorLogin(challenge, { code: codeAt(STEP) }))
      assert.deepStrictEqual(Object.keys(messages(reused)), ["code"])
    }).pipe(Effect.provide(Ports())))

  it.effect("a code already used in its step is refused: the confirming one, and one used to log in", () =>
    Effect.gen(function*() {
      const { codeAt } = yield* enrolled
      // The code that confirmed the enrolment, within the same step.
      const confirming = yield* Effect.flip(completeTwoFactorLogin(yield* passwordStep, { code: codeAt() }))
      assert.deepStrictEqual(messages(confirming), { code: ["The code is invalid."] })
      yield* TestClock.adjust(Duration.millis(STEP))
      yield* completeTwoFactorLogin(yield* passwordStep, { code: codeAt(STEP) })
      const replayed = yield* Effect.flip(completeTwoFactorLogin(yield* passwordStep, { code: codeAt(STEP) }))
      assert.deepStrictEqual(messages(replayed), { code: ["The code is invalid."] })
      // Nor an earlier step's code, though still within the window.
      yield* TestClock.adjust(Duration.millis(STEP))
      const earlier = yield* Effect.flip(completeTwoFactorLogin(yield* passwordStep, { code: codeAt(STEP) }))
      assert.deepStrictEqual(messages(earlier), { code: ["The code is invalid."] })
      yield* completeTwoFactorLogin(yield* passwordStep, { code: codeAt(2 * STEP) })
    }).pipe(Effect.provide(Ports())))

  it.effect("allows 5 attempts per pending login: then even the right code is refused", () =>
    Effect.gen(function*() {
      const { codeAt } = yield* enrolled
      yield* TestClock.adjust(Duration.millis(STEP))
      const challenge = yield* passwordStep
      for (let attempt = 1; attempt <= 5; attempt++) {
        const wrong = yield* Effect.flip(completeTwoFactorLogin(challenge, { code: "000000" }))
        assert.deepStrictEqual(messages(wrong), { code: ["The code is invalid."] }, `attempt ${attempt}`)
      }
      const spent = yield* Effect.flip(completeTwoFactorLogin(challenge, { code: codeAt(STEP) }))
      assert.deepStrictEqual(messages(spent), { code: ["The login has expired or had too many attempts: log in again."] })
      // A new password step starts over.
      yield* completeTwoFactorLogin(yield* passwordStep, { code: codeAt(STEP) })
    }).pipe(Effect.provide(Ports())))

  it.effect("expires 5 minutes after the password step", () =>
    Effect.gen(function*() {
      const { codeAt } = yield* enrolled
      const challenge = yield* passwordStep
      yield* TestClock.adjust(TWO_FACTOR_LOGIN_LIFETIME)
      const lifetime = Duration.toMillis(TWO_FACTOR_LOGIN_LIFETIME)
      const expired = yield* Effect.flip(completeTwoFactorLogin(challenge, { code: codeAt(lifetime) }))
      assert.deepStrictEqual(messages(expired), { code: ["The login has expired or had too many attempts: log in again."] })
      // Just before the end it still completes.
      const fresh = yield* passwordStep
      yield* TestClock.adjust(Duration.subtract(TWO_FACTOR_LOGIN_LIFETIME, Duration.millis(1)))
      yield* completeTwoFactorLogin(fresh, { code: codeAt(2 * lifetime - 1) })
    }).pipe(Effect.provide(Ports())))

  it.effect("a recovery code completes it once (as typed, in any case), then is refused", () =>
    Effect.gen(function*() {
      const { user_id, recoveryCodes } = yield* enrolled
      const [first] = recoveryCodes
      const session = yield* completeTwoFactorLogin(yield* passwordStep, { recoveryCode: ` ${first!.toUpperCase()} ` })
      assert.strictEqual(session.user.id, user_id)
      const used = yield* Effect.flip(completeTwoFactorLogin(yield* passwordStep, { recoveryCode: first! }))
      assert.deepStrictEqual(messages(used), { recovery_code: ["The recovery code is invalid."] })
      const unknown = yield* Effect.flip(completeTwoFactorLogin(yield* passwordStep, { recoveryCode: "aaaaa-aaaaa" }))
      assert.deepStrictEqual(Object.keys(messages(unknown)), ["recovery_code"])
      assert.strictEqual(Option.getOrThrow(yield* (yield* TwoFactorRepository).find(user_id)).recoveryCodeHashes.length, 7)
    }).pipe(Effect.provide(Ports())))

  it.effect("an unknown challenge is refused on the factor's field", () =>
    Effect.gen(function*() {
      yield* enrolled
      const unknown = yield* Effect.flip(completeTwoFactorLogin("not-a-challenge", { code: "123456" }))
      assert.deepStrictEqual(Object.keys(messages(unknown)), ["code"])
    }).pipe(Effect.provide(Ports())))
})

describe("turning two-factor off", () => {
  it.effect("needs the password; then login opens a session at once, and a pending login is over", () =>
    Effect.gen(function*() {
      const { user_id, principal, codeAt } = yield* enrolled
      const pending = yield* passwordStep
      const wrong = yield* Effect.flip(disableTwoFactor(user_id, "not the password"))
      assert.deepStrictEqual(messages(wrong), { password: ["The password is incorrect."] })
      assert.isTrue((yield* currentUser(principal)).has2FA)
      yield* disableTwoFactor(user_id, OWNER.password)
      const me = yield* currentUser(principal)
      assert.isFalse(me.has2FA)
      assert.isNull(me.two_factor_confirmed_at)
      assert.strictEqual((yield* login(OWNER.email, OWNER.password))._tag, "Session")
      yield* TestClock.adjust(Duration.millis(STEP))
      const over = yield* Effect.flip(completeTwoFactorLogin(pending, { code: codeAt(STEP) }))
      assert.deepStrictEqual(Object.keys(messages(over)), ["code"])
      // And it can be enrolled again, with a new secret.
      const again = yield* beginTwoFactor(user_id)
      assert.isString(again.secret)
    }).pipe(Effect.provide(Ports())))
})
