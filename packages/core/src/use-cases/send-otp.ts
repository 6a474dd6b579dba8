/**
 * `POST /api/broadcasts/{id}/send-otp` (spec §3.3, §4.2, §7, §8; decisions §7).
 *
 * Checks, in order: an API token (sessions are refused, 403) with `broadcast-send-otp` (403); the
 * broadcast exists in the account (404) and is an approved AUTHENTICATION template (403); the body
 * (422: recipients, `to`, `code`); a `contact_id` of the account with a number (422).
 *
 * Then one transaction: take one OTP credit (402 when none is left), claim the recipient's
 * cooldown (429 with Retry-After), find or create the contact of a `to`, send through the provider
 * and, once it accepted, supersede the recipient's live codes of this template, store the new
 * verification (managed mode) and the message. A rejection (422 on to/contact_id) or an
 * unavailable provider (503) fails the transaction, so nothing stays: the credit is not charged,
 * the cooldown not started, no contact created, no verification issued. The account row stays
 * locked from the charge to the commit, so concurrent sends of one account queue there and the
 * balance can never go below zero.
 *
 * The plaintext code exists only in this function and in the provider request.
 */
import { DateTime, Effect, Option } from "effect"
import type { Principal } from "../auth/principal.ts"
import { forbidden, PaymentRequired, TooManyRequests } from "../errors.ts"
import { sendThroughProvider, storeMessage } from "../messaging/dispatch.ts"
import { OtpLedger, VerificationRepository } from "../messaging/messaging-repositories.ts"
import { MessagingSettings } from "../messaging/messaging-settings.ts"
import { generateOtpCode, OtpCodeHasher } from "../messaging/otp-code.ts"
import { startVerification, supersede } from "../messaging/otp-verification.ts"
import { recipientOfContact, recipientOfNumber } from "../messaging/recipient.ts"
import { validateSendOtpInput } from "../messaging/send-input.ts"
import { DEFAULT_CODE_EXPIRATION_MINUTES } from "../messaging/template.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize, requireToken } from "./authenticate.ts"
import { findBroadcast } from "./messaging.ts"

export const NOT_AN_AUTHENTICATION_TEMPLATE = "The template is not an approved authentication template."
export const NO_OTP_CREDITS = "The account has no OTP credits left."
export const OTP_COOLDOWN = "A code was already sent to this recipient. Try again later."

export const sendOtp = Effect.fn("sendOtp")(function*(principal: Principal, broadcastId: number, body: unknown) {
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
  // A contact_id is checked before anything is charged; a new number's contact is made in the transaction.
  const known = target._tag === "Contact" ? yield* recipientOfContact(accountId, target.contactId) : undefined
  const settings = yield* MessagingSettings
  const transactor = yield* Transactor

  return yield* transactor.transaction(Effect.gen(function*() {
    const ledger = yield* OtpLedger
    if (!(yield* ledger.chargeCredit(accountId))) return yield* new PaymentRequired({ message: NO_OTP_CREDITS })
    const recipient = target._tag === "Number" ? yield* recipientOfNumber(accountId, target.to) : known!
    const now = yield* DateTime.now
    const cooling = yield* ledger.claimCooldown(accountId, recipient.digits, now, settings.otpCooldown)
    if (Option.isSome(cooling)) return yield* new TooManyRequests({ message: OTP_COOLDOWN, retryAfter: cooling.value })

    const managed = input.code === undefined
    const code = input.code ?? (yield* generateOtpCode)
    const messageId = yield* sendThroughProvider(broadcast, recipient, field, { code })
    const message = yield* storeMessage(broadcast, recipient, messageId, true)
    if (!managed) return { message, broadcast, verification: undefined }

    const verifications = yield* VerificationRepository
    for (const live of yield* verifications.listLive(accountId, broadcast.id, recipient.number)) {
      yield* verifications.update(supersede(live, now))
    }
    const id = yield* newRecordId
    const verification = startVerification({
      id,
      account_id: accountId,
      broadcast_id: broadcast.id,
      contact_id: recipient.contactId,
      to: recipient.number,
      code_hash: yield* OtpCodeHasher.use((hasher) => hasher.hash(id, code)),
      lifetimeMinutes: broadcast.template.code_expiration_minutes ?? DEFAULT_CODE_EXPIRATION_MINUTES
    }, now)
    yield* verifications.insert(verification)
    return { message, broadcast, verification }
  }))
})
