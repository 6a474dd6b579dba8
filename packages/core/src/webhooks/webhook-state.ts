/**
 * The webhook state machine as data plus pure transitions. Use-cases (management) and the
 * delivery worker load a webhook, apply one transition, and persist the result; nothing here
 * reads a clock or a database.
 *
 * - create → (false, false), no failures.
 * - validated → is_validated true, is_active unchanged.
 * - activate(true|false) → 403 unless validated; `true` also clears the failure count.
 * - urlChanged → is_validated false (deliveries stop until validated again), failures cleared.
 * - deliverySucceeded → failures 0.
 * - deliveryExhausted(now) → failures + 1, last_failure_at now; reaching the threshold while
 *   active switches the webhook off (still validated) and reports `deactivated`, which the caller
 *   turns into the WebhookDeactivated notice exactly once.
 * - canDeliver ⇔ validated and active.
 */
import type { DateTime } from "effect"
import { Result } from "effect"
import { type Forbidden, forbidden } from "../errors.ts"

/** Exhausted deliveries in a row that switch an active webhook off. */
export const FAILURE_THRESHOLD = 3

/** The 403 message of `PUT .../activate` on a webhook that has not passed validation. */
export const NOT_VALIDATED_MESSAGE = "The webhook must be validated before it can be activated."

/**
 * Where a webhook stands. Events are delivered only while it is both validated and active
 * (`canDeliver`).
 */
export interface WebhookState {
  /** The endpoint answered the validation challenge correctly (since its URL last changed). */
  readonly isValidated: boolean
  /** The owner switched it on (and it was not switched off by failures since). */
  readonly isActive: boolean
  /** Deliveries in a row that used all their attempts; a success resets it to 0. */
  readonly consecutiveFailures: number
  /** When the last delivery used all its attempts; null if none ever did. */
  readonly lastFailureAt: DateTime.Utc | null
}

/** A new webhook: unvalidated, inactive, no failures, no last failure. */
export const initialWebhookState: WebhookState = {
  isValidated: false,
  isActive: false,
  consecutiveFailures: 0,
  lastFailureAt: null
}

/** Whether events may be sent: exactly when the webhook is validated and active. */
export const canDeliver = (state: WebhookState): boolean => state.isValidated && state.isActive

/**
 * The endpoint answered the validation challenge correctly: `isValidated` becomes true; `isActive`
 * and the failures are unchanged. Allowed in every state.
 */
export const validated = (state: WebhookState): WebhookState => ({ ...state, isValidated: true })

/**
 * `PUT .../activate`: switches the webhook on (`isActive: true`, which also resets
 * `consecutiveFailures` to 0) or off (`isActive: false`, failures kept). Fails with Forbidden
 * (`NOT_VALIDATED_MESSAGE`) while the webhook is unvalidated, whichever way is asked; the state is
 * then unchanged. `lastFailureAt` is never changed.
 */
export const activate = (state: WebhookState, isActive: boolean): Result.Result<WebhookState, Forbidden> => {
  if (!state.isValidated) return Result.fail(forbidden(NOT_VALIDATED_MESSAGE))
  return Result.succeed(isActive ? { ...state, isActive: true, consecutiveFailures: 0 } : { ...state, isActive: false })
}

/**
 * `PUT .../{id}` with a different URL: `isValidated` becomes false (deliveries stop until the new
 * URL is validated) and `consecutiveFailures` 0; `isActive` and `lastFailureAt` are kept. Allowed
 * in every state.
 */
export const urlChanged = (state: WebhookState): WebhookState => ({ ...state, isValidated: false, consecutiveFailures: 0 })

/**
 * A delivery attempt was answered with a 2xx: `consecutiveFailures` becomes 0 (the same state is
 * returned when it already was); everything else is kept.
 */
export const deliverySucceeded = (state: WebhookState): WebhookState =>
  state.consecutiveFailures === 0 ? state : { ...state, consecutiveFailures: 0 }

/** What `deliveryExhausted` answers: the new state, and whether it switched the webhook off. */
export interface ExhaustedOutcome {
  /** The webhook's new state. */
  readonly state: WebhookState
  /** True only for the transition that switched the webhook off: notify once. */
  readonly deactivated: boolean
}

/**
 * A delivery used all its attempts at `now`: `consecutiveFailures` goes up by one and
 * `lastFailureAt` becomes `now`. If the webhook is active and the count reaches
 * `FAILURE_THRESHOLD`, it is switched off (`isActive: false`, still validated) and `deactivated`
 * is true; otherwise `isActive` is kept and `deactivated` is false. An inactive webhook's count
 * still grows, and `deactivated` is true at most once per switch-on.
 */
export const deliveryExhausted = (state: WebhookState, now: DateTime.Utc): ExhaustedOutcome => {
  const consecutiveFailures = state.consecutiveFailures + 1
  const deactivated = state.isActive && consecutiveFailures >= FAILURE_THRESHOLD
  return {
    state: { ...state, consecutiveFailures, lastFailureAt: now, isActive: deactivated ? false : state.isActive },
    deactivated
  }
}
