/**
 * Managed-OTP verification (decisions §7): `POST /api/verifications/{id}/verify` and
 * `GET /api/verifications/{id}`, with send-otp's authentication (an API token with
 * `broadcast-send-otp`; sessions refused). Load, transition (otp-verification.ts), persist: the
 * row is locked for the attempt, so concurrent attempts are counted one by one, and the new state
 * is committed before a wrong code or a dead verification is reported.
 */
import { DateTime, Effect, Option, Schema } from "effect"
import type { Principal } from "../auth/principal.ts"
import { Gone, InvalidOtpCode, NotFound } from "../errors.ts"
import { VerificationRepository } from "../messaging/messaging-repositories.ts"
import { OtpCodeHasher } from "../messaging/otp-code.ts"
import { verify } from "../messaging/otp-verification.ts"
import { validateVerifyInput } from "../messaging/send-input.ts"
import { Transactor } from "../transactor.ts"
import { RecordId } from "../wire/record-id.ts"
import { authorize, requireToken } from "./authenticate.ts"

export const VERIFICATION_NOT_LIVE = "The verification is no longer valid."

const isRecordId = Schema.is(RecordId)

const authorizeOtp = (principal: Principal) =>
  Effect.andThen(requireToken(principal), authorize(principal, "broadcast-send-otp"))

/** `GET /api/verifications/{id}`: the verification as of now (an expired one reads `expired`). */
export const getVerification = Effect.fn("getVerification")(function*(principal: Principal, id: string) {
  yield* authorizeOtp(principal)
  if (!isRecordId(id)) return yield* new NotFound()
  const found = yield* VerificationRepository.use((repo) => repo.findById(principal.accountId, id))
  if (Option.isNone(found)) return yield* new NotFound()
  return found.value
})

/** `POST /api/verifications/{id}/verify` `{ code }`. */
export const verifyCode = Effect.fn("verifyCode")(function*(principal: Principal, id: string, body: unknown) {
  yield* authorizeOtp(principal)
  if (!isRecordId(id)) return yield* new NotFound()
  const code = yield* validateVerifyInput(body)
  const transactor = yield* Transactor
  const outcome = yield* transactor.transaction(Effect.gen(function*() {
    const repo = yield* VerificationRepository
    const found = yield* repo.findById(principal.accountId, id, { forUpdate: true })
    if (Option.isNone(found)) return yield* new NotFound()
    const current = found.value
    const matches = yield* OtpCodeHasher.use((hasher) => hasher.matches(current.id, code, current.code_hash))
    const result = verify(current, matches, yield* DateTime.now)
    if (result.next !== current) yield* repo.update(result.next)
    return result
  }))
  switch (outcome._tag) {
    case "Approved":
      return outcome.next
    case "WrongCode":
      return yield* new InvalidOtpCode({ attemptsRemaining: outcome.attemptsRemaining })
    case "NotLive":
      return yield* new Gone({ message: VERIFICATION_NOT_LIVE, status: outcome.status })
  }
})
