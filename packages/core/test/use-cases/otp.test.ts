/**
 * send-otp, verify and the OTP reservation sweep on the all-memory ports, time driven by
 * TestClock: the managed code is read where the recipient would read it (the memory provider),
 * verified once; wrong codes count down to max_attempts_reached; a code expires at expires_at;
 * the cooldown holds per recipient and a later code supersedes the live one; a credit is charged
 * once per accepted send, given back when the provider refuses it, and given back by the sweep
 * when the send never finished. The HTTP tests prove the wire shapes, the permissions and the
 * validation; these prove the use-cases themselves, with no database.
 */
import { assert, describe, it } from "@effect/vitest"
import { SentMessages } from "@wasl/adapters/memory"
import { DateTime, Duration, Effect, Fiber, Option } from "effect"
import { TestClock } from "effect/testing"
import { AccountRepository } from "../../src/Accounts.ts"
import { Gone, InvalidOtpCode, TooManyRequests } from "../../src/errors.ts"
import { MessagingProvider } from "../../src/Messaging.ts"
import {
  formatExpiresAt,
  getVerification,
  MAX_VERIFY_ATTEMPTS,
  OTP_RESERVATION_SAFE_AFTER,
  type OtpReservationStatus,
  sendOtp,
  sweepOtpReservations,
  verifyCode
} from "../../src/Otp.ts"
import { NOW, OWNER, setup } from "../support/fixtures.ts"
import { MessagingTestPorts, otpBroadcast } from "../support/messaging.ts"
import { memoryState } from "../support/store.ts"
import { recordingMatchLock } from "../support/transactions.ts"

const ALICE = "+966500000001"
const BOB = "+966500000002"

const credits = (accountId: number) =>
  AccountRepository.use((accounts) => accounts.findById(accountId)).pipe(
    Effect.map((account) => Option.getOrThrow(account).otp_credits)
  )

/** The code the recipient's phone shows for its last accepted send. */
const codeSentTo = (number: string) =>
  SentMessages.use((sent) => sent.lastCodeTo(number)).pipe(Effect.map(Option.getOrThrow))

/** The status a 410 answer reports (or what came instead). */
const goneStatus = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => error instanceof Gone ? error.status : `${error._tag} instead of Gone`)

/** The attempts a wrong code leaves (or what came instead). */
const attemptsLeft = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => error instanceof InvalidOtpCode ? error.attemptsRemaining : error._tag)

/** The Retry-After seconds of a 429 answer (or what came instead). */
const retryAfter = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => error instanceof TooManyRequests ? error.retryAfter : error._tag)

const wrong = (code: string) => code === "000000" ? "111111" : "000000"

const reservationStatuses = Effect.map(
  memoryState,
  (state): ReadonlyArray<OtpReservationStatus> => [...state.messaging.reservations.values()].map((r) => r.status)
)

const verificationCount = Effect.map(memoryState, (state) => state.messaging.verifications.size)

describe("managed send-otp and verify", () => {
  it.effect("sends a code only the recipient sees, approves it once, and charges one credit", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const broadcast = yield* otpBroadcast(principal)
      const sent = yield* sendOtp(principal, broadcast.id, { to: ALICE })
      const verification = sent.verification!
      assert.strictEqual(verification.status, "live")
      assert.strictEqual(verification.to, ALICE)
      assert.strictEqual(formatExpiresAt(verification.expires_at), formatExpiresAt(DateTime.makeUnsafe(NOW + 600_000)))
      const code = yield* codeSentTo(ALICE)
      assert.match(code, /^[0-9]{6}$/)
      // Stored only masked and hashed.
      assert.strictEqual(sent.message.body, "Your code is ******.")
      assert.notInclude(verification.code_hash, code)
      assert.strictEqual(yield* credits(account_id), OWNER.otpCredits - 1)
      assert.deepStrictEqual(yield* reservationStatuses, ["settled"])

      const approved = yield* verifyCode(principal, verification.id, { code })
      assert.strictEqual(approved.status, "approved")
      assert.strictEqual((yield* getVerification(principal, verification.id)).status, "approved")
      assert.strictEqual(yield* goneStatus(verifyCode(principal, verification.id, { code })), "approved")
      assert.strictEqual(yield* credits(account_id), OWNER.otpCredits - 1)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("a send to a number no contact has takes the account's contact match lock before it makes the contact", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const broadcast = yield* otpBroadcast(principal)
      const { locks, withLocks } = recordingMatchLock()
      yield* withLocks(sendOtp(principal, broadcast.id, { to: ALICE }))
      // Taken again by the message's store, in the same transaction (where it does not wait).
      assert.deepStrictEqual(locks, [[principal.accountId, "contact"], [principal.accountId, "contact"]])
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("counts wrong codes down to max_attempts_reached, after which the right code is refused too", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const broadcast = yield* otpBroadcast(principal)
      const { verification } = yield* sendOtp(principal, broadcast.id, { to: ALICE })
      const code = yield* codeSentTo(ALICE)
      for (let left = MAX_VERIFY_ATTEMPTS - 1; left >= 0; left--) {
        assert.strictEqual(yield* attemptsLeft(verifyCode(principal, verification!.id, { code: wrong(code) })), left)
      }
      const stored = yield* getVerification(principal, verification!.id)
      assert.deepStrictEqual([stored.status, stored.attempts], ["max_attempts_reached", MAX_VERIFY_ATTEMPTS])
      assert.strictEqual(yield* goneStatus(verifyCode(principal, verification!.id, { code })), "max_attempts_reached")
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("lets a code verify until its expires_at, and answers expired (410) from then on", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const broadcast = yield* otpBroadcast(principal, 10)
      const forAlice = (yield* sendOtp(principal, broadcast.id, { to: ALICE })).verification!
      const aliceCode = yield* codeSentTo(ALICE)
      const forBob = (yield* sendOtp(principal, broadcast.id, { to: BOB })).verification!
      const bobCode = yield* codeSentTo(BOB)

      yield* TestClock.adjust(Duration.millis(10 * 60_000 - 1))
      assert.strictEqual((yield* verifyCode(principal, forAlice.id, { code: aliceCode })).status, "approved")
      yield* TestClock.adjust(Duration.millis(1))
      assert.strictEqual(yield* goneStatus(verifyCode(principal, forBob.id, { code: bobCode })), "expired")
      // The attempt wrote the end state down.
      assert.strictEqual((yield* getVerification(principal, forBob.id)).status, "expired")
    }).pipe(Effect.provide(MessagingTestPorts())))
})

describe("cooldown", () => {
  it.effect("refuses a second send to a recipient within the cooldown, uncharged; after it, the new code supersedes the live one", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const broadcast = yield* otpBroadcast(principal)
      const first = (yield* sendOtp(principal, broadcast.id, { to: ALICE })).verification!
      const firstCode = yield* codeSentTo(ALICE)

      yield* TestClock.adjust(Duration.seconds(20))
      assert.strictEqual(yield* retryAfter(sendOtp(principal, broadcast.id, { to: ALICE })), 40)
      // The cooldown is per recipient: another one is served meanwhile.
      yield* sendOtp(principal, broadcast.id, { to: BOB })
      assert.strictEqual(yield* credits(account_id), OWNER.otpCredits - 2)
      assert.strictEqual((yield* SentMessages.use((sent) => sent.all)).length, 2)

      yield* TestClock.adjust(Duration.seconds(40))
      const second = (yield* sendOtp(principal, broadcast.id, { to: ALICE })).verification!
      const secondCode = yield* codeSentTo(ALICE)
      assert.strictEqual((yield* getVerification(principal, first.id)).status, "failed")
      assert.strictEqual(yield* goneStatus(verifyCode(principal, first.id, { code: firstCode })), "failed")
      assert.strictEqual((yield* verifyCode(principal, second.id, { code: secondCode })).status, "approved")
      assert.strictEqual(yield* credits(account_id), OWNER.otpCredits - 3)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("takes its length from MessagingSettings", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const broadcast = yield* otpBroadcast(principal)
      yield* sendOtp(principal, broadcast.id, { to: ALICE })
      yield* TestClock.adjust(Duration.millis(4_500))
      assert.strictEqual(yield* retryAfter(sendOtp(principal, broadcast.id, { to: ALICE })), 1)
      yield* TestClock.adjust(Duration.millis(500))
      yield* sendOtp(principal, broadcast.id, { to: ALICE })
    }).pipe(Effect.provide(MessagingTestPorts({ otpCooldown: "5 seconds" }))))
})

describe("credits", () => {
  it.effect("charges each accepted send once, relay or managed, and refuses a send with none left before calling the provider", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup({ ...OWNER, otpCredits: 2 })
      const broadcast = yield* otpBroadcast(principal)
      const relay = yield* sendOtp(principal, broadcast.id, { to: ALICE, code: "AB12CD" })
      assert.isUndefined(relay.verification)
      assert.strictEqual(yield* codeSentTo(ALICE), "AB12CD")
      assert.strictEqual(yield* verificationCount, 0)
      yield* sendOtp(principal, broadcast.id, { to: BOB })
      assert.strictEqual(yield* credits(account_id), 0)

      const broke = yield* Effect.flip(sendOtp(principal, broadcast.id, { to: "+966500000003" }))
      assert.strictEqual(broke._tag, "PaymentRequired")
      assert.strictEqual((yield* SentMessages.use((sent) => sent.all)).length, 2)
      assert.deepStrictEqual(yield* reservationStatuses, ["settled", "settled"])
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("gives the credit and the cooldown back when the provider refuses the number, and stores nothing", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup({ ...OWNER, otpCredits: 1 })
      const broadcast = yield* otpBroadcast(principal)
      const before = yield* memoryState
      const refused = yield* Effect.flip(sendOtp(principal, broadcast.id, { to: "+999123456" }))
      assert.deepStrictEqual(refused._tag === "ValidationFailed" && Object.keys(refused.errors), ["to"])
      assert.strictEqual(yield* credits(account_id), 1)
      assert.deepStrictEqual(yield* reservationStatuses, ["released"])
      assert.strictEqual(yield* verificationCount, 0)
      assert.strictEqual((yield* memoryState).messaging.messages.size, 0)
      assert.strictEqual((yield* memoryState).outbox.length, before.outbox.length)
      const [request] = yield* SentMessages.use((sent) => sent.all)
      assert.strictEqual(request!.outcome._tag, "Rejected")
      // No cooldown was left behind: the same number is tried (and refused) again at once, not 429.
      const again = yield* Effect.flip(sendOtp(principal, broadcast.id, { to: "+999123456" }))
      assert.strictEqual(again._tag, "ValidationFailed")
      assert.strictEqual(yield* credits(account_id), 1)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("refunds a send whose process stopped during the provider call, by the sweep after the safe time, once", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const broadcast = yield* otpBroadcast(principal)
      // A provider that never answers, and a send interrupted while it waits: as if the process stopped.
      const send = yield* sendOtp(principal, broadcast.id, { to: ALICE }).pipe(
        Effect.provideService(MessagingProvider, MessagingProvider.of({ send: () => Effect.never, sendText: () => Effect.never, markRead: () => Effect.never, fetchMedia: () => Effect.never, readNumber: () => Effect.never })),
        Effect.forkChild
      )
      while ((yield* reservationStatuses).length === 0) yield* Effect.yieldNow
      yield* Fiber.interrupt(send)
      assert.deepStrictEqual(yield* reservationStatuses, ["open"])
      assert.strictEqual(yield* credits(account_id), OWNER.otpCredits - 1)

      yield* TestClock.adjust(Duration.millis(Duration.toMillis(OTP_RESERVATION_SAFE_AFTER) - 1))
      assert.strictEqual(yield* sweepOtpReservations(100), 0)
      yield* TestClock.adjust(Duration.millis(1))
      assert.strictEqual(yield* sweepOtpReservations(100), 1)
      assert.strictEqual(yield* sweepOtpReservations(100), 0)
      assert.deepStrictEqual(yield* reservationStatuses, ["released"])
      assert.strictEqual(yield* credits(account_id), OWNER.otpCredits)
      assert.strictEqual(yield* verificationCount, 0)
    }).pipe(Effect.provide(MessagingTestPorts())))
})
