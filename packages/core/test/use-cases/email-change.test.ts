/** Changing and verifying the login e-mail through single-use mailed links. */
import { assert, describe, it } from "@effect/vitest"
import { MailerMemory, MemoryMailbox } from "@wasl/adapters/memory"
import { Duration, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import {
  confirmEmailChange,
  confirmEmailVerification,
  requestEmailChange,
  sendEmailVerification,
  UserRepository
} from "../../src/Accounts.ts"
import { authenticateSession, login } from "../../src/Auth.ts"
import { type ValidationFailed } from "../../src/errors.ts"
import { addMember, loginSession, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { memoryState } from "../support/store.ts"

const errorsOf = (error: ValidationFailed | { readonly _tag: string }) => "errors" in error ? error.errors : {}
const WithMail = () => Layer.merge(TestPorts(), MailerMemory)

/** The token of the last link mailed, and where it went. */
const lastLink = Effect.gen(function*() {
  const mail = (yield* MemoryMailbox.use((mailbox) => mailbox.sent)).at(-1)!
  const token = /token=([A-Za-z0-9]+)/.exec(mail.text)![1]!
  return { to: mail.to, subject: mail.subject, text: mail.text, token }
})

describe("requestEmailChange and confirmEmailChange", () => {
  it.effect("mails the new address a link; following it changes the e-mail, once", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const user = yield* requestEmailChange(principal, " new.jane@example.com ", undefined)
      assert.strictEqual(user.change_email_to, "new.jane@example.com")
      assert.strictEqual(user.email, OWNER.email)
      const link = yield* lastLink
      assert.strictEqual(link.to, "new.jane@example.com")
      assert.include(link.text, "/email/confirm?token=")
      assert.include(link.text, "24 hours")
      // Only a hash of the token is stored.
      const stored = [...(yield* memoryState).emailTokens.values()]
      assert.lengthOf(stored, 1)
      assert.notStrictEqual(stored[0]!.tokenHash, link.token)
      assert.notInclude(JSON.stringify(stored), link.token)

      const changed = yield* confirmEmailChange(link.token)
      assert.strictEqual(changed.email, "new.jane@example.com")
      assert.isNull(changed.change_email_to)
      assert.isNotNull(changed.email_verified_at)
      assert.strictEqual((yield* loginSession("new.jane@example.com", OWNER.password)).user.email, "new.jane@example.com")
      const again = yield* Effect.flip(confirmEmailChange(link.token))
      assert.deepStrictEqual(errorsOf(again), { token: ["This link is invalid or has expired."] })
    }).pipe(Effect.provide(WithMail())))

  it.effect("a link expires after 24 hours, and an earlier one stops working when a new one is sent", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* requestEmailChange(principal, "first@example.com", undefined)
      const first = yield* lastLink
      yield* requestEmailChange(principal, "second@example.com", undefined)
      const second = yield* lastLink
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(confirmEmailChange(first.token))), {
        token: ["This link is invalid or has expired."]
      })
      yield* TestClock.adjust(Duration.hours(24))
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(confirmEmailChange(second.token))), {
        token: ["This link is invalid or has expired."]
      })
      assert.strictEqual(Option.getOrThrow(yield* (yield* UserRepository).findById(principal.userId)).email, OWNER.email)
    }).pipe(Effect.provide(WithMail())))

  it.effect("refuses an invalid, unchanged or taken address, and a session without the right password", () =>
    Effect.gen(function*() {
      const { principal, account_id } = yield* setup()
      yield* addMember(account_id, "taken@example.com", [])
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(requestEmailChange(principal, "not an address", undefined))), {
        email: ["The email field must be a valid email address."]
      })
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(requestEmailChange(principal, OWNER.email.toUpperCase(), undefined))), {
        email: ["The email field must be different from your current email."]
      })
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(requestEmailChange(principal, "Taken@example.com", undefined))), {
        email: ["The email has already been taken."]
      })
      const session = yield* authenticateSession((yield* loginSession(OWNER.email, OWNER.password)).cookie)
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(requestEmailChange(session, "mine@example.com", undefined))), {
        password: ["The password field is required."]
      })
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(requestEmailChange(session, "mine@example.com", "wrong"))), {
        password: ["The password is incorrect."]
      })
      assert.lengthOf(yield* MemoryMailbox.use((mailbox) => mailbox.sent), 0)
      yield* requestEmailChange(session, "mine@example.com", OWNER.password)
      assert.strictEqual((yield* lastLink).to, "mine@example.com")
    }).pipe(Effect.provide(WithMail())))

  it.effect("an address another user took meanwhile is refused when the link is followed", () =>
    Effect.gen(function*() {
      const { principal, account_id } = yield* setup()
      yield* requestEmailChange(principal, "wanted@example.com", undefined)
      const link = yield* lastLink
      yield* addMember(account_id, "wanted@example.com", [])
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(confirmEmailChange(link.token))), {
        email: ["The email has already been taken."]
      })
      assert.isTrue((yield* Effect.exit(login(OWNER.email, OWNER.password)))._tag === "Success")
    }).pipe(Effect.provide(WithMail())))
})

describe("sendEmailVerification and confirmEmailVerification", () => {
  it.effect("mails the current address a 7-day link that sets email_verified_at, once; a verified one is not mailed", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      assert.isTrue(yield* sendEmailVerification(principal.userId))
      const link = yield* lastLink
      assert.strictEqual(link.to, OWNER.email)
      assert.include(link.text, "/email/verify?token=")
      assert.include(link.text, "7 days")
      yield* TestClock.adjust(Duration.days(6))
      const verified = yield* confirmEmailVerification(link.token)
      assert.isNotNull(verified.email_verified_at)
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(confirmEmailVerification(link.token))), {
        token: ["This link is invalid or has expired."]
      })
      assert.isFalse(yield* sendEmailVerification(principal.userId))
      assert.lengthOf(yield* MemoryMailbox.use((mailbox) => mailbox.sent), 1)
    }).pipe(Effect.provide(WithMail())))

  it.effect("a change link is no verification link, and a verification link expires after 7 days", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* sendEmailVerification(principal.userId)
      const verify = yield* lastLink
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(confirmEmailChange(verify.token))), {
        token: ["This link is invalid or has expired."]
      })
      yield* TestClock.adjust(Duration.days(7))
      assert.deepStrictEqual(errorsOf(yield* Effect.flip(confirmEmailVerification(verify.token))), {
        token: ["This link is invalid or has expired."]
      })
    }).pipe(Effect.provide(WithMail())))
})
