/**
 * The webhook state machine of spec §3.1 as data plus pure transitions (ARCHITECTURE rule 4).
 * Use-cases (management) and the delivery worker load a webhook, apply one transition, and
 * persist the result; nothing here reads a clock or a database.
 *
 * - create → (false, false), no failures.
 * - validated → is_validated true, is_active unchanged.
 * - activate(true|false) → 403 unless validated; `true` also clears the failure count.
 * - urlChanged → is_validated false (deliveries stop until validated again), failures cleared.
 * - deliverySucceeded → failures 0.
 * - deliveryExhausted(now) → failures + 1, last_failure_at now; reaching the threshold while
 *   active switches the webhook off (still validated) and reports `deactivated`, which the caller
 *   turns into the WebhookDeactivated notice (spec §6.6) exactly once.
 * - canDeliver ⇔ validated and active.
 */
import type { DateTime } from "effect"
import { Result } from "effect"
import { type Forbidden, forbidden } from "../errors.ts"

/** Exhausted deliveries in a row that switch a webhook off (spec §8). */
export const FAILURE_THRESHOLD = 3

/** The 403 message of `PUT .../activate` on a webhook that has not passed validation. */
export const NOT_VALIDATED_MESSAGE = "The webhook must be validated before it can be activated."

export interface WebhookState {
  readonly isValidated: boolean
  readonly isActive: boolean
  readonly consecutiveFailures: number
  readonly lastFailureAt: DateTime.Utc | null
}

/** A new webhook: unvalidated, inactive, no failures (spec §4.9 rule 1). */
export const initialWebhookState: WebhookState = {
  isValidated: false,
  isActive: false,
  consecutiveFailures: 0,
  lastFailureAt: null
}

/** Whether events may be sent: only in (true, true) (spec §3.1). */
export const canDeliver = (state: WebhookState): boolean => state.isValidated && state.isActive

/** The endpoint answered the challenge correctly. */
export const validated = (state: WebhookState): WebhookState => ({ ...state, isValidated: true })

/** `PUT .../activate`; refused with 403 while unvalidated, the state then unchanged. */
export const activate = (state: WebhookState, isActive: boolean): Result.Result<WebhookState, Forbidden> => {
  if (!state.isValidated) return Result.fail(forbidden(NOT_VALIDATED_MESSAGE))
  return Result.succeed(isActive ? { ...state, isActive: true, consecutiveFailures: 0 } : { ...state, isActive: false })
}

/** `PUT .../{id}` with a different URL: back to unvalidated, failure count cleared. */
export const urlChanged = (state: WebhookState): WebhookState => ({ ...state, isValidated: false, consecutiveFailures: 0 })

/** Any 2xx answer to a delivery. */
export const deliverySucceeded = (state: WebhookState): WebhookState =>
  state.consecutiveFailures === 0 ? state : { ...state, consecutiveFailures: 0 }

export interface ExhaustedOutcome {
  readonly state: WebhookState
  /** True only for the transition that switched the webhook off: notify once. */
  readonly deactivated: boolean
}

/** A delivery used all its attempts at `now`. */
export const deliveryExhausted = (state: WebhookState, now: DateTime.Utc): ExhaustedOutcome => {
  const consecutiveFailures = state.consecutiveFailures + 1
  const deactivated = state.isActive && consecutiveFailures >= FAILURE_THRESHOLD
  return {
    state: { ...state, consecutiveFailures, lastFailureAt: now, isActive: deactivated ? false : state.isActive },
    deactivated
  }
}
