/**
 * The testing kit's arbitraries draw what the service itself accepts and what the machines can
 * reach, checked with the core's own rules (only through the kit's entry point and the core's
 * public one).
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Exit, Result } from "effect"
import * as fc from "fast-check"
import { attemptSucceeded, DELIVERY_ATTEMPTS, isSuccessStatus } from "../../src/Deliveries.ts"
import { validateSendOtpInput } from "../../src/Messaging.ts"
import { MAX_VERIFY_ATTEMPTS } from "../../src/Otp.ts"
import { checkWebhookUrlSyntax, FAILURE_THRESHOLD, validateWebhookBody } from "../../src/Webhooks.ts"
import {
  attemptResponse,
  codeLifetimeMinutes,
  deliveryState,
  failedAttemptResponse,
  failureStatus,
  managedOtpCode,
  recipientNumber,
  relayOtpCode,
  retrySchedule,
  successStatus,
  timeoutFailure,
  verification,
  webhookInput,
  webhookSecret,
  webhookState,
  webhookUrl
} from "../../src/testing/index.ts"

const accepted = (body: unknown) => Exit.isSuccess(Effect.runSyncExit(validateSendOtpInput(body)))

describe("the kit's arbitraries", () => {
  it("webhook URLs pass the URL rule, and create bodies pass the body rules", () => {
    fc.assert(fc.property(webhookUrl, (url) => checkWebhookUrlSyntax(url).ok))
    fc.assert(fc.property(webhookInput, (input) => {
      const checked = validateWebhookBody({ URL: input.url, events: input.events }, "create")
      expect(Result.isSuccess(checked) ? checked.success : checked.failure).toEqual(input)
    }))
  })

  it("webhook secrets are 32 letters and digits", () => {
    fc.assert(fc.property(webhookSecret, (secret) => /^[A-Za-z0-9]{32}$/.test(secret)))
  })

  it("webhook states are reachable: active below the failure threshold, a failure time once failed", () => {
    fc.assert(fc.property(webhookState, (s) =>
      (!s.isActive || s.consecutiveFailures < FAILURE_THRESHOLD) && (s.consecutiveFailures === 0 || s.lastFailureAt !== null)))
  })

  it("statuses and responses: successes succeed, failures (statuses, connections, timeouts) fail", () => {
    fc.assert(fc.property(successStatus, isSuccessStatus))
    fc.assert(fc.property(failureStatus, (status) => !isSuccessStatus(status)))
    fc.assert(fc.property(failedAttemptResponse, (response) => !attemptSucceeded(response)))
    fc.assert(fc.property(attemptResponse, (response) => response._tag === "Failed" || (response.status >= 100 && response.status <= 599)))
    fc.assert(fc.property(timeoutFailure(Duration.seconds(5)), (response) => response.durationMillis === 5000))
  })

  it("retry schedules have one delay per attempt, and delivery states hold together", () => {
    fc.assert(fc.property(retrySchedule(), (schedule) => schedule.length === DELIVERY_ATTEMPTS))
    fc.assert(fc.property(deliveryState(), (state) =>
      (state.status === "pending") === (state.nextAttemptAt !== null) &&
      state.attempts <= DELIVERY_ATTEMPTS &&
      (state.status !== "pending" || state.attempts < DELIVERY_ATTEMPTS) &&
      (state.status !== "succeeded" || state.attempts >= 1)))
  })

  it("codes and numbers pass send-otp's rules: managed codes are 6 digits, relay codes and numbers are accepted", () => {
    fc.assert(fc.property(managedOtpCode, (code) => /^[0-9]{6}$/.test(code)))
    fc.assert(fc.property(relayOtpCode, recipientNumber, (code, to) => accepted({ to, code })))
    fc.assert(fc.property(codeLifetimeMinutes, (minutes) => Number.isInteger(minutes) && minutes >= 1 && minutes <= 90))
  })

  it("verifications: 5 attempts exactly when locked, fewer otherwise; expiry after creation", () => {
    fc.assert(fc.property(verification, (v) =>
      (v.status === "max_attempts_reached") === (v.attempts === MAX_VERIFY_ATTEMPTS) &&
      v.attempts <= MAX_VERIFY_ATTEMPTS &&
      DateTime.isGreaterThan(v.expires_at, v.created_at) &&
      DateTime.isGreaterThanOrEqualTo(v.updated_at, v.created_at)))
  })
})
