/**
 * `POST /api/broadcasts/{id}/send-otp`.
 *
 * Checks, in order: an API token (sessions are refused, 403) with `broadcast-send-otp` (403); the
 * broadcast exists in the account (404) and is an approved AUTHENTICATION template (403); the body
 * (422: recipients, `to`, `code`); a `contact_id` of the account with a number (422).
 *
 * Then two short transactions with the provider call between them, so that no database connection
 * and no account row lock is held while the provider answers (messaging/otp-reservation.ts):
 *
 * 1. Reserve: take one OTP credit (402 when none is left), claim the recipient's cooldown (429 with
 *    Retry-After) and open a reservation for the credit. The account row is locked only for this
 *    transaction, so concurrent sends of one account queue there and the balance can never go
 *    below zero.
 * 2. Send through the provider, no transaction open.
 * 3. Accepted: settle the reservation, find or create the contact of a `to` (with its event),
 *    store the message and, in managed mode, supersede the recipient's older live codes of this
 *    template and store the new verification — one transaction, so the verification cannot be
 *    read or verified before it commits. A rejection (422 on to/contact_id) or an unavailable
 *    provider (503): release the reservation (the credit back) and the cooldown claim, so
 *    nothing stays: no charge, no cooldown, no contact, no verification.
 *
 * Once the provider has been called, the rest runs uninterruptibly (a client going away must not
 * leave a delivered code without its verification). A process that stops between 1 and 3 leaves
 * the reservation open; the worker's sweeper refunds it.
 *
 * The plaintext code exists only in this function and in the provider request.
 */
import { DateTime, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import type { SecretBox } from "../auth/secret-box.ts"
import {
  type Forbidden,
  forbidden,
  type NotFound,
  PaymentRequired,
  type ServiceUnavailable,
  TooManyRequests,
  type ValidationFailed
} from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import type { Broadcast } from "../messaging/broadcast.ts"
import { type MessageStoreServices, sendThroughProvider, storeMessage } from "../messaging/dispatch.ts"
import type { Message } from "../messaging/message.ts"
import type { MessagingProvider } from "../messaging/messaging-provider.ts"
import { type BroadcastRepository } from "../messaging/broadcast-repository.ts"
import { OtpLedger } from "../messaging/otp-ledger.ts"
import { OtpReservationRepository } from "../messaging/otp-reservation-repository.ts"
import { VerificationRepository } from "../messaging/verification-repository.ts"
import type { OtpReservation } from "../messaging/otp-reservation.ts"
import { MessagingSettings } from "../messaging/messaging-settings.ts"
import { generateOtpCode, OtpCodeHasher } from "../messaging/otp-code.ts"
import { startVerification, supersede, type Verification } from "../messaging/otp-verification.ts"
import { digitsOf, recipientOfContact, recipientOfNumber } from "../messaging/recipient.ts"
import { validateSendOtpInput } from "../messaging/send-input.ts"
import { DEFAULT_CODE_EXPIRATION_MINUTES } from "../messaging/template.ts"
import type { PropertyHistoryRepository } from "../records/property-history-repository.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { RecordRepository } from "../records/record-repository.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize, requireToken } from "./authenticate.ts"
import { findBroadcast } from "./messaging.ts"

/** The 403 message of a send-otp with a broadcast that is not an approved authentication template. */
export const NOT_AN_AUTHENTICATION_TEMPLATE = "The template is not an approved authentication template."
/** The 402 message of a send-otp on an account without OTP credits. */
export const NO_OTP_CREDITS = "The account has no OTP credits left."
/** The 429 message of a send-otp to a recipient still in its cooldown. */
export const OTP_COOLDOWN = "A code was already sent to this recipient. Try again later."

/** What {@link sendOtp} answers. */
export interface OtpSent {
  /** The message, as stored. */
  readonly message: Message
  /** The broadcast sent. */
  readonly broadcast: Broadcast
  /** Managed mode (no `code` given): the verification that checks the code; relay mode: none. */
  readonly verification: Verification | undefined
}

/**
 * `POST /api/broadcasts/{id}/send-otp` `{ to | contact_id, code? }`: sends a one-time code with
 * the broadcast's authentication template, to a number (`to`, 6 to 20 digits, an optional `+`) or
 * to a contact of the account (`contact_id`). Without `code` Wasl makes a 6-digit code and keeps
 * its hash in a verification (managed mode: check it with `verifyCode`); with `code` (4 to 15
 * letters and digits) it sends that code and keeps nothing of it (relay mode). Each accepted send
 * costs one OTP credit; a recipient then waits a cooldown before the next. A send to a new number
 * creates its contact. Only an API token with `broadcast-send-otp` may send (a session may not).
 *
 * Answers the message, the broadcast and, in managed mode, the verification. Fails
 * {@link Forbidden} for a session, without the permission, or for a broadcast that is not an
 * approved authentication template ({@link NOT_AN_AUTHENTICATION_TEMPLATE}); {@link NotFound} for
 * a broadcast the account does not have; {@link ValidationFailed} for an invalid body, a contact
 * without a number, or a rejection by the provider; {@link PaymentRequired} without credits
 * ({@link NO_OTP_CREDITS}); {@link TooManyRequests} during the cooldown ({@link OTP_COOLDOWN},
 * `retryAfter` seconds); {@link ServiceUnavailable} when the provider cannot be reached for now. A
 * send that fails after the credit was taken gives it back, and its cooldown.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { type Principal, sendOtp, verifyCode } from "@wasl/core"
 *
 * // Managed mode: Wasl makes the code and sends it; keep the verification's id for the check.
 * const sendCode = (principal: Principal, broadcastId: number) =>
 *   sendOtp(principal, broadcastId, { to: "+966500000000" }).pipe(
 *     Effect.map(({ verification }) => verification!.id)
 *   )
 *
 * // The code the user typed: true when it matches, false (with attempts left) when it does not.
 * const checkCode = (principal: Principal, verificationId: string, code: string) =>
 *   verifyCode(principal, verificationId, { code }).pipe(
 *     Effect.as(true),
 *     Effect.catchTag("InvalidOtpCode", () => Effect.succeed(false))
 *   )
 * ```
 */
export const sendOtp: (
  principal: Principal,
  broadcastId: number,
  body: unknown
) => Effect.Effect<
  OtpSent,
  Forbidden | NotFound | PaymentRequired | ServiceUnavailable | TooManyRequests | ValidationFailed,
  | BroadcastRepository
  | MessageStoreServices
  | MessagingProvider
  | MessagingSettings
  | OtpCodeHasher
  | OtpLedger
  | OtpReservationRepository
  | Outbox
  | PropertyHistoryRepository
  | PropertyRepository
  | RecordRepository
  | SecretBox
  | SecureRandom.SecureRandom
  | Transactor
  | VerificationRepository
> = Effect.fn("sendOtp")(function*(principal: Principal, broadcastId: number, body: unknown) {
  yield* requireToken(principal)
  yield* authorize(principal, "broadcast-send-otp")
  const broadcast = yield* findBroadcast(principal.accountId, broadcastId)
  if (broadcast.template.category !== "AUTHENTICATION" || broadcast.status !== "APPROVED") {
    return yield* forbidden(NOT_AN_AUTHENTICATION_TEMPLATE)
  }
  const input = yield* validateSendOtpInput(body)
  const accountId = principal.accountId
  const target = input.recipient
  const field = target._tag === "Number" ? "to" : "contact_id"
  // A contact_id is checked before anything is charged; a new number's contact is made once the send happened.
  const known = target._tag === "Contact" ? yield* recipientOfContact(accountId, target.contactId) : undefined
  const settings = yield* MessagingSettings
  const transactor = yield* Transactor
  const ledger = yield* OtpLedger
  const reservations = yield* OtpReservationRepository
  // The cooldown key: a `to`'s digits need no contact, which is only found or made once the send happened.
  const digits = target._tag === "Number" ? digitsOf(target.to) : known!.digits

  const reservation = yield* transactor.transaction(Effect.gen(function*() {
    if (!(yield* ledger.chargeCredit(accountId))) return yield* new PaymentRequired({ message: NO_OTP_CREDITS })
    const now = yield* DateTime.now
    const cooling = yield* ledger.claimCooldown(accountId, digits, now, settings.otpCooldown)
    if (Option.isSome(cooling)) return yield* new TooManyRequests({ message: OTP_COOLDOWN, retryAfter: cooling.value })
    const reservation: OtpReservation = {
      id: yield* newRecordId,
      account_id: accountId,
      recipient: digits,
      status: "open",
      created_at: now,
      updated_at: now
    }
    yield* reservations.open(reservation)
    return reservation
  }))
  const sentAt = reservation.created_at

  const managed = input.code === undefined
  const code = input.code ?? (yield* generateOtpCode)

  /** Rejected or unavailable: the send did not happen, so neither its credit nor its cooldown stays. */
  const release = transactor.transaction(Effect.gen(function*() {
    yield* reservations.release(accountId, reservation.id, yield* DateTime.now)
    yield* ledger.releaseCooldown(accountId, digits, sentAt)
  }))

  const store = (messageId: string) =>
    transactor.transaction(Effect.gen(function*() {
      const now = yield* DateTime.now
      if (!(yield* reservations.settle(accountId, reservation.id, now))) {
        // Only when this transaction came later than OTP_RESERVATION_SAFE_AFTER: the send goes uncharged.
        yield* Effect.logWarning("an OTP send was stored after its reservation had been refunded").pipe(
          Effect.annotateLogs({ reservation_id: reservation.id })
        )
      }
      const recipient = target._tag === "Number" ? yield* recipientOfNumber(accountId, target.to, { _tag: "Send", userId: principal.userId }) : known!
      const message = yield* storeMessage(broadcast, recipient, messageId, true)
      if (!managed) return { message, broadcast, verification: undefined }

      // Sends to one recipient store their verifications one at a time; a send whose outcome is
      // stored after a newer send's (possible only with a cooldown shorter than a provider call)
      // must not supersede the newer code, so its own starts superseded.
      yield* ledger.lockRecipient(accountId, digits)
      const verifications = yield* VerificationRepository
      const live = yield* verifications.listLive(accountId, broadcast.id, recipient.number)
      for (const older of live.filter((v) => !DateTime.isGreaterThan(v.created_at, sentAt))) {
        yield* verifications.update(supersede(older, now))
      }
      const id = yield* newRecordId
      const started = startVerification({
        id,
        account_id: accountId,
        broadcast_id: broadcast.id,
        contact_id: recipient.contactId,
        to: recipient.number,
        code_hash: yield* OtpCodeHasher.use((hasher) => hasher.hash(id, code)),
        lifetimeMinutes: broadcast.template.code_expiration_minutes ?? DEFAULT_CODE_EXPIRATION_MINUTES
      }, sentAt)
      const newer = live.some((v) => DateTime.isGreaterThan(v.created_at, sentAt))
      const verification = newer ? supersede(started, now) : started
      yield* verifications.insert(verification)
      return { message, broadcast, verification }
    }))

  return yield* Effect.uninterruptibleMask((restore) =>
    restore(sendThroughProvider(broadcast, { digits }, field, { code })).pipe(
      Effect.tapError(() => release),
      Effect.flatMap(store)
    )
  )
})
