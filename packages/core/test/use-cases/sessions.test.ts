import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { UserRepository } from "../../src/Accounts.ts"
import { login, logout, SESSION_LIFETIME, SessionRepository, TokenHasher } from "../../src/Auth.ts"
import { formatSqlDateTime } from "../../src/Wire.ts"
import { BAD_CREDENTIALS, NOW, loginSession, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { PasswordHasherCalls } from "../support/password-hasher.ts"
import { memoryState, setMembershipStatus } from "../support/store.ts"

describe("login", () => {
  it.effect("opens a session and returns the cookie and the current user", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      const { cookie, user } = yield* loginSession(OWNER.email, OWNER.password)
      assert.match(cookie, /^[A-Za-z0-9]{40}$/)
      assert.strictEqual(user.id, user_id)
      assert.strictEqual(user.account.id, account_id)
      // The session is stored under the hash of the cookie, never the cookie.
      const idHash = yield* (yield* TokenHasher).hash(cookie)
      const session = Option.getOrThrow(yield* (yield* SessionRepository).find(idHash))
      assert.strictEqual(session.accountId, account_id)
      assert.strictEqual(session.userId, user_id)
      assert.strictEqual(DateTime.toEpochMillis(session.expiresAt), NOW + Duration.toMillis(SESSION_LIFETIME))
      assert.isFalse((yield* memoryState).sessions.has(cookie))
      // The membership is marked used, and the returned user shows it.
      assert.strictEqual(user.account.pivot.last_used, formatSqlDateTime(DateTime.makeUnsafe(NOW)))
    }).pipe(Effect.provide(TestPorts())))

  it.effect("the e-mail matches case-insensitively", () =>
    Effect.gen(function*() {
      yield* setup()
      yield* login("Jane.Doe@EXAMPLE.com", OWNER.password)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("two logins give two different sessions", () =>
    Effect.gen(function*() {
      yield* setup()
      const a = yield* loginSession(OWNER.email, OWNER.password)
      const b = yield* loginSession(OWNER.email, OWNER.password)
      assert.notStrictEqual(a.cookie, b.cookie)
      assert.strictEqual((yield* memoryState).sessions.size, 2)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a bad password is ValidationFailed on `email`", () =>
    Effect.gen(function*() {
      yield* setup()
      const error = yield* Effect.flip(login(OWNER.email, "wrong password"))
      assert.strictEqual(error._tag, "ValidationFailed")
      assert.deepStrictEqual(error.errors, { email: [BAD_CREDENTIALS] })
      assert.strictEqual(error.message, BAD_CREDENTIALS)
      assert.strictEqual((yield* memoryState).sessions.size, 0)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an unknown e-mail gives the same error, after the same hashing work", () =>
    Effect.gen(function*() {
      yield* setup()
      const calls = yield* PasswordHasherCalls
      const hashesBefore = calls.hash
      const error = yield* Effect.flip(login("nobody@example.com", OWNER.password))
      assert.strictEqual(error._tag, "ValidationFailed")
      assert.deepStrictEqual(error.errors, { email: [BAD_CREDENTIALS] })
      assert.strictEqual(calls.hash, hashesBefore + 1)
      assert.strictEqual((yield* memoryState).sessions.size, 0)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a user with no active membership cannot log in", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      yield* setMembershipStatus(account_id, user_id, "suspended")
      const error = yield* Effect.flip(login(OWNER.email, OWNER.password))
      assert.strictEqual(error._tag, "ValidationFailed")
      assert.deepStrictEqual(error.errors, { email: [BAD_CREDENTIALS] })
    }).pipe(Effect.provide(TestPorts())))

  it.effect("opens the session in the most recently used account", () =>
    Effect.gen(function*() {
      const first = yield* setup()
      const second = yield* setup({ ...OWNER, account: "Other", email: "owner@other.example" })
      const users = yield* UserRepository
      yield* users.addMembership(second.account_id, first.user_id)
      // First login: the only used membership is the first account's.
      assert.strictEqual((yield* loginSession(OWNER.email, OWNER.password)).user.account.id, first.account_id)
      yield* TestClock.adjust(Duration.seconds(10))
      yield* users.touchMembership(second.account_id, first.user_id)
      assert.strictEqual((yield* loginSession(OWNER.email, OWNER.password)).user.account.id, second.account_id)
    }).pipe(Effect.provide(TestPorts())))
})

describe("logout", () => {
  it.effect("removes the session", () =>
    Effect.gen(function*() {
      yield* setup()
      const { cookie } = yield* loginSession(OWNER.email, OWNER.password)
      const idHash = yield* (yield* TokenHasher).hash(cookie)
      yield* logout(idHash)
      assert.isTrue(Option.isNone(yield* (yield* SessionRepository).find(idHash)))
      // Logging out twice is harmless.
      yield* logout(idHash)
    }).pipe(Effect.provide(TestPorts())))
})
