/**
 * Managed-OTP verification: `POST /api/verifications/{id}/verify` and
 * `GET /api/verifications/{id}`, with send-otp's authentication (an API token with
 * `broadcast-send-otp`; sessions refused). Load, transition (otp-verification.ts), persist: the
 * row is locked for the attempt, so concurrent attempts are counted one by one, and the new state
 * is committed before a wrong code or a dead verification is reported.
 */
import { DateTime, Effect, Option, Schema } from "effect"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, Gone, InvalidOtpCode, NotFound, type ValidationFailed } from "../errors.ts"
import { VerificationRepository } from "../messaging/verification-repository.ts"
import { OtpCodeHasher } from "../messaging/otp-code.ts"
import { type Verification, verify } from "../messaging/otp-verification.ts"
import { validateVerifyInput } from "../messaging/send-input.ts"
import { Transactor } from "../transactor.ts"
import { RecordId } from "../wire/record-id.ts"
import { authorize, requireToken } from "./authenticate.ts"

/** The 410 message of a verify on a verification that is no longer live. */
export const VERIFICATION_NOT_LIVE = "The verification is no longer valid."

const isRecordId = Schema.is(RecordId)

const authorizeOtp = (principal: Principal) =>
  Effect.andThen(requireToken(principal), authorize(principal, "broadcast-send-otp"))

/**
 * `GET /api/verifications/{id}`: a managed-OTP verification of the account, as stored (its status
 * as of now is `effectiveStatus`: an expired one reads `expired`). Only an API token with
 * `broadcast-send-otp` may read it (else {@link Forbidden}). Fails {@link NotFound} for an id the
 * account has no verification of.
 */
export const getVerification: (
  principal: Principal,
  id: string
) => Effect.Effect<Verification, Forbidden | NotFound, VerificationRepository> = Effect.fn("getVerification")(
  function*(principal: Principal, id: string) {
    yield* authorizeOtp(principal)
    if (!isRecordId(id)) return yield* new NotFound()
    const found = yield* VerificationRepository.use((repo) => repo.findById(principal.accountId, id))
    if (Option.isNone(found)) return yield* new NotFound()
    return found.value
  }
)

/**
 * `POST /api/verifications/{id}/verify` `{ code }`: checks the code a user typed against a live
 * managed-OTP verification (compared in constant time). Each wrong code counts: after 5 the
 * verification is dead. Concurrent attempts are counted one by one, and the new state is stored
 * before the answer. Only an API token with `broadcast-send-otp` may verify.
 *
 * Answers the verification, now `approved`. Fails {@link InvalidOtpCode} for a wrong code (with
 * the attempts left); {@link Gone} when the verification is no longer live (approved already,
 * expired, superseded by a newer send, or out of attempts: `status` says which;
 * {@link VERIFICATION_NOT_LIVE}); {@link Forbidden} for a session or without the permission;
 * {@link NotFound} for an id the account has no verification of; {@link ValidationFailed} on
 * `code` (required, at most 15 characters).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { type Principal, verifyCode } from "@wasl/core"
 *
 * const check = (principal: Principal, verificationId: string, code: string) =>
 *   verifyCode(principal, verificationId, { code }).pipe(
 *     Effect.as("approved"),
 *     Effect.catchTags({
 *       InvalidOtpCode: (e) => Effect.succeed(`wrong code, ${e.attemptsRemaining} attempts left`),
 *       Gone: (e) => Effect.succeed(`ask for a new code (${e.status})`)
 *     })
 *   )
 * ```
 */
export const verifyCode: (
  principal: Principal,
  id: string,
  body: unknown
) => Effect.Effect<
  Verification,
  Forbidden | Gone | InvalidOtpCode | NotFound | ValidationFailed,
  OtpCodeHasher | Transactor | VerificationRepository
> = Effect.fn("verifyCode")(function*(principal: Principal, id: string, body: unknown) {
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
