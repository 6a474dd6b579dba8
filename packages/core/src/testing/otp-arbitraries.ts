/**
 * Arbitraries of managed one-time passwords: verification states, codes, attempts, lifetimes and
 * stored verifications, and the triggers of the OTP model.
 */
import { DateTime, Duration } from "effect"
import * as fc from "fast-check"
import { MANAGED_CODE_DIGITS } from "../messaging/otp-code.ts"
import {
  MAX_VERIFY_ATTEMPTS,
  type NewVerification,
  type Verification,
  VERIFICATION_STATUSES,
  type VerificationStatus
} from "../messaging/otp-verification.ts"
import { MAX_CODE_EXPIRATION_MINUTES } from "../messaging/template.ts"
import type { OtpTrigger } from "./otp-model.ts"
import { instant } from "./time-arbitraries.ts"

/** One of the five statuses: live, approved, expired, failed, max_attempts_reached. */
export const verificationStatus: fc.Arbitrary<VerificationStatus> = fc.constantFrom(...VERIFICATION_STATUSES)

/** A managed code as the service draws one: 6 decimal digits. */
export const managedOtpCode: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 10 ** MANAGED_CODE_DIGITS - 1 })
  .map((n) => String(n).padStart(MANAGED_CODE_DIGITS, "0"))

/** A code a caller may supply in relay mode: 4 to 15 letters and digits. */
export const relayOtpCode: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z0-9]{4,15}$/)

/** A recipient's number as send-otp accepts it: 6 to 20 digits, maybe a leading +. */
export const recipientNumber: fc.Arbitrary<string> = fc.stringMatching(/^\+?[0-9]{6,20}$/)

/** How long a managed code lives, in minutes: what a template's code_expiration_minutes allows (1 to 90). */
export const codeLifetimeMinutes: fc.Arbitrary<number> = fc.integer({ min: 1, max: MAX_CODE_EXPIRATION_MINUTES })

/** Wrong codes a verification has taken: 0 to 5. */
export const verifyAttempts: fc.Arbitrary<number> = fc.nat({ max: MAX_VERIFY_ATTEMPTS })

const recordId = fc.stringMatching(/^[0-9a-f]{24}$/)

/** What `startVerification` takes: ids, the recipient, a code hash and a lifetime. */
export const newVerification: fc.Arbitrary<NewVerification> = fc.record({
  id: recordId,
  account_id: fc.integer({ min: 1, max: 1_000_000 }),
  broadcast_id: fc.integer({ min: 1, max: 1_000_000 }),
  contact_id: recordId,
  to: recipientNumber,
  code_hash: fc.stringMatching(/^[0-9a-f]{64}$/),
  lifetimeMinutes: codeLifetimeMinutes
})

/**
 * A stored verification in any status: created at some instant, expiring its lifetime later, with
 * the attempts its status allows (5 exactly when max_attempts_reached, fewer otherwise).
 */
export const verification: fc.Arbitrary<Verification> = fc
  .record({
    input: newVerification,
    status: verificationStatus,
    attempts: fc.nat({ max: MAX_VERIFY_ATTEMPTS - 1 }),
    createdAt: instant,
    touchedAfter: fc.nat({ max: 2 * MAX_CODE_EXPIRATION_MINUTES * 60_000 })
  })
  .map(({ attempts, createdAt, input, status, touchedAfter }) => {
    const { lifetimeMinutes, ...ids } = input
    return {
      ...ids,
      status,
      attempts: status === "max_attempts_reached" ? MAX_VERIFY_ATTEMPTS : attempts,
      expires_at: DateTime.addDuration(createdAt, Duration.minutes(lifetimeMinutes)),
      created_at: createdAt,
      updated_at: DateTime.addDuration(createdAt, Duration.millis(touchedAfter))
    }
  })

// The model's runs draw codes from these six, for sends and guesses alike, so that a guess is the
// right code about one time in six.
const RUN_CODES = ["000000", "123456", "271828", "314159", "424242", "999999"] as const

/**
 * A trigger of the OTP model: a managed send (one time in four) with a lifetime of 1 to 10
 * minutes, or a verify attempt, mostly on the latest verification. Codes come from six, so that
 * guesses are right about one time in six.
 */
export const otpTrigger: fc.Arbitrary<OtpTrigger> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      _tag: fc.constant("Send"),
      code: fc.constantFrom(...RUN_CODES),
      lifetimeMinutes: fc.integer({ min: 1, max: 10 })
    })
  },
  {
    weight: 3,
    arbitrary: fc.record({
      _tag: fc.constant("Verify"),
      back: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) }),
      code: fc.constantFrom(...RUN_CODES)
    })
  }
)
