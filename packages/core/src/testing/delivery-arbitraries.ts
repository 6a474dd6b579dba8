/**
 * Arbitraries of deliveries: their states, how an attempt ends (status codes, failed connections,
 * timeouts), retry schedules, and the triggers of the delivery model.
 */
import { Duration } from "effect"
import * as fc from "fast-check"
import { DEFAULT_DELIVERY_TIMEOUT } from "../webhooks/delivery-policy.ts"
import { DEFAULT_RETRY_SCHEDULE, DELIVERY_ATTEMPTS, type DeliveryState, type RetrySchedule } from "../webhooks/delivery-state.ts"
import type { WebhookResponse } from "../webhooks/webhook-transport.ts"
import type { DeliveryTrigger } from "./delivery-model.ts"
import { instant } from "./time-arbitraries.ts"

/** A 2xx status: the attempt succeeded. */
export const successStatus: fc.Arbitrary<number> = fc.integer({ min: 200, max: 299 })

/**
 * A status that fails an attempt: 1xx, 3xx (redirects are not followed), 4xx, 5xx, the common ones
 * more often.
 */
export const failureStatus: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(301, 302, 307, 308, 400, 401, 404, 410, 429, 500, 502, 503),
  fc.integer({ min: 100, max: 599 }).filter((status) => status < 200 || status > 299)
)

/** Any status from 100 to 599, successes and the common failures more often. */
export const httpStatus: fc.Arbitrary<number> = fc.oneof(successStatus, failureStatus, fc.integer({ min: 100, max: 599 }))

const duration = fc.integer({ min: 0, max: 29_999 })

/** The endpoint answered with a status drawn from `status` (any by default). */
export const answeredResponse = (status: fc.Arbitrary<number> = httpStatus): fc.Arbitrary<WebhookResponse> =>
  fc.record({
    _tag: fc.constant("Answered"),
    status,
    body: fc.constantFrom("", "ok", "{\"received\":true}", "<html>Bad Gateway</html>"),
    durationMillis: duration
  })

/** The request failed before an answer: refused or reset connection, unknown host, TLS, a refused address. */
export const transportFailure: fc.Arbitrary<WebhookResponse> = fc.record({
  _tag: fc.constant("Failed"),
  error: fc.constantFrom(
    "connect ECONNREFUSED",
    "read ECONNRESET",
    "getaddrinfo ENOTFOUND",
    "certificate has expired",
    "The URL host resolves to an address that is not allowed."
  ),
  durationMillis: duration
})

/** The endpoint did not answer within `timeout` (30 s by default). */
export const timeoutFailure = (timeout: Duration.Duration = DEFAULT_DELIVERY_TIMEOUT): fc.Arbitrary<WebhookResponse> => {
  const millis = Duration.toMillis(timeout)
  return fc.constant({ _tag: "Failed", error: `Timed out after ${millis} ms.`, durationMillis: millis })
}

/** An attempt that fails: a failure status, a failed connection or a timeout. */
export const failedAttemptResponse: fc.Arbitrary<WebhookResponse> = fc.oneof(
  answeredResponse(failureStatus),
  transportFailure,
  timeoutFailure()
)

/** How any attempt ends: an answer (2xx or not), a failed connection or a timeout. */
export const attemptResponse: fc.Arbitrary<WebhookResponse> = fc.oneof(answeredResponse(), transportFailure, timeoutFailure())

/**
 * A retry schedule: the default one, or DELIVERY_ATTEMPTS delays of up to `maxDelayMillis` (about
 * 3 hours by default) as a deployment may configure them.
 */
export const retrySchedule = (maxDelayMillis = 10_000_000): fc.Arbitrary<RetrySchedule> =>
  fc.oneof(
    fc.constant(DEFAULT_RETRY_SCHEDULE),
    fc.array(fc.integer({ min: 0, max: maxDelayMillis }), { minLength: DELIVERY_ATTEMPTS, maxLength: DELIVERY_ATTEMPTS })
      .map((delays) => delays.map((millis) => Duration.millis(millis)))
  )

/** Any state a delivery under `schedule` can be in: pending with attempts left, succeeded, or failed. */
export const deliveryState = (schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE): fc.Arbitrary<DeliveryState> =>
  fc.oneof(
    fc.record({
      status: fc.constant("pending"),
      attempts: fc.integer({ min: 0, max: schedule.length - 1 }),
      nextAttemptAt: instant
    }),
    fc.record({ status: fc.constant("succeeded"), attempts: fc.integer({ min: 1, max: schedule.length }), nextAttemptAt: fc.constant(null) }),
    // Failed after every attempt, or cancelled after fewer (none at all included).
    fc.record({ status: fc.constant("failed"), attempts: fc.integer({ min: 0, max: schedule.length }), nextAttemptAt: fc.constant(null) })
  )

/**
 * A trigger of the delivery model: an attempt ending with any response (two times in six), an
 * attempt that fails (three times in six: six failures in a row are the long path through the
 * schedule), or a cancellation (once in six).
 */
export const deliveryTrigger: fc.Arbitrary<DeliveryTrigger> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("Attempt"), response: attemptResponse }) },
  { weight: 3, arbitrary: fc.record({ _tag: fc.constant("Attempt"), response: failedAttemptResponse }) },
  { weight: 1, arbitrary: fc.constant({ _tag: "Cancel" }) }
)
