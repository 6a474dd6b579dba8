/** The caller's profile (`PUT /api/me`) and password (`PUT /api/me/password`). */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { changePassword, updateProfile, UserRepository } from "../../src/Accounts.ts"
import {
  authenticateSession,
  challengeTwoFactor,
  login,
  TokenHasher,
  TwoFactorLoginRepository
} from "../../src/Auth.ts"
import { type ValidationFailed } from "../../src/errors.ts"
import { loginSession, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { fakePasswordHash } from "../support/password-hasher.ts"

const errorsOf = (error: ValidationFailed | { readonly _tag: string }) => "errors" in error ? error.errors : {}

describe("updateProfile", () => {
  it.effect("changes the fields given, trimmed, with the locale in its canonical form, and answers the current user", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const me = yield* updateProfile(principal, { firstname: "  Ada ", locale: "EN-gb", image: "https://example.com/a.png" })
      assert.strictEqual(me.firstname, "Ada")
      assert.strictEqual(me.locale, "en-GB")
      assert.strictEqual(me.image, "https://example.com/a.png")
      assert.strictEqual(me.account.id, principal.accountId)
      const stored = Option.getOrThrow(yield* (yield* UserRepository).findById(principal.userId))
      assert.strictEqual(stored.lastname, me.lastname)
      const cleared = yield* updateProfile(principal, { image: null, lastname: "Lovelace" })
      assert.isNull(cleared.image)
      assert.strictEqual(cleared.firstname, "Ada")
      assert.strictEqual(cleared.lastname, "Lovelace")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("refuses an empty or long name, a locale that is no language tag and an image that is not https", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const before = Option.getOrThrow(yield* (yield* UserRepository).findById(principal.userId))
      const error = yield* Effect.flip(updateProfile(principal, {
        firstname: "   ",
        lastname: "x".repeat(256),
        locale: "not a locale!",
        image: "http://example.com/a.png"
      }))
      assert.deepStrictEqual(errorsOf(error), {
        firstname: ["The firstname field is required."],
        lastname: ["The lastname field must not be greater than 255 characters."],
        locale: ["The locale field must be a BCP 47 language tag."],
        image: ["The image field must start with one of the following: https://."]
      })
      const notUrl = yield* Effect.flip(updateProfile(principal, { image: "a picture" }))
      assert.deepStrictEqual(errorsOf(notUrl), { image: ["The image field must be a valid URL."] })
      // Nothing was written.
      assert.deepStrictEqual(yield* (yield* UserRepository).findById(principal.userId), Option.some(before))
    }).pipe(Effect.provide(TestPorts())))
})

describe("changePassword", () => {
  it.effect("needs the current password; then the new one logs in, the old does not, and the other sessions end", () =>
    Effect.gen(function*() {
      yield* setup()
      const mine = yield* authenticateSession((yield* loginSession(OWNER.email, OWNER.password)).cookie)
      const otherCookie = (yield* loginSession(OWNER.email, OWNER.password)).cookie
      const wrong = yield* Effect.flip(changePassword(mine, "not it", "a new password"))
      assert.deepStrictEqual(errorsOf(wrong), { current_password: ["The password is incorrect."] })
      const short = yield* Effect.flip(changePassword(mine, OWNER.password, "short"))
      assert.deepStrictEqual(errorsOf(short), { password: ["The password field must be at least 8 characters."] })
      // The refusals changed nothing: the other session still works.
      yield* authenticateSession(otherCookie)

      yield* changePassword(mine, OWNER.password, "a new password")
      assert.deepStrictEqual(
        yield* (yield* UserRepository).findPasswordHash(mine.userId),
        Option.some(fakePasswordHash("a new password"))
      )
      assert.strictEqual((yield* Effect.flip(authenticateSession(otherCookie)))._tag, "Unauthenticated")
      assert.strictEqual((yield* loginSession(OWNER.email, "a new password")).user.id, mine.userId)
      assert.strictEqual((yield* Effect.flip(login(OWNER.email, OWNER.password)))._tag, "ValidationFailed")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("keeps the caller's own session", () =>
    Effect.gen(function*() {
      yield* setup()
      const cookie = (yield* loginSession(OWNER.email, OWNER.password)).cookie
      const mine = yield* authenticateSession(cookie)
      yield* changePassword(mine, OWNER.password, "a new password")
      assert.strictEqual((yield* authenticateSession(cookie)).userId, mine.userId)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("ends every login of the user waiting for its second factor", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const { challenge } = yield* challengeTwoFactor(principal.userId)
      const idHash = yield* (yield* TokenHasher).hash(challenge)
      yield* changePassword(principal, OWNER.password, "a new password")
      assert.isTrue(Option.isNone(yield* (yield* TwoFactorLoginRepository).claimAttempt(idHash, 5)))
    }).pipe(Effect.provide(TestPorts())))

  it.effect("from an API token, ends every session of the user", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const cookie = (yield* loginSession(OWNER.email, OWNER.password)).cookie
      yield* changePassword(principal, OWNER.password, "a new password")
      assert.strictEqual((yield* Effect.flip(authenticateSession(cookie)))._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))
})
