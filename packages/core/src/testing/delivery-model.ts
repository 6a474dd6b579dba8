/**
 * The delivery state machine's reference model, written from the delivery rules:
 *
 * - a delivery has one attempt per delay of its retry schedule (6 by default: immediately, then
 *   5 min, 30 min, 1 h, 3 h and 1 day); attempt 1 is due `delays[0]` after the delivery is queued,
 *   attempt n + 1 is due `delays[n]` after attempt n failed;
 * - an answer with a 2xx status ends it `succeeded`; any other status, a timeout or a failed
 *   connection is a failed attempt: the next one is scheduled, or after the last one it ends
 *   `failed` and counts once toward the webhook's consecutive failures (`Exhausted`);
 * - a delivery whose webhook stopped delivering is cancelled: `failed`, with no attempt and without
 *   counting as a failure;
 * - a finished delivery accepts nothing more (`Finished`).
 *
 * Invariants after every step: pending exactly while a next attempt is scheduled; never more
 * attempts than delays; exhausted at most once, and only after the last attempt; due exactly from
 * the scheduled instant on while pending.
 */
import { DateTime, Duration } from "effect"
import { type AttemptOutcome, type DeliveryState, isDue, type RetrySchedule } from "../webhooks/delivery-state.ts"
import type { WebhookResponse } from "../webhooks/webhook-transport.ts"
import { differences } from "./differences.ts"
import type { ReferenceModel, Transition } from "./reference-model.ts"

/** What happens to a delivery: an attempt ends with `response`, or its webhook stopped delivering. */
export type DeliveryTrigger =
  | { readonly _tag: "Attempt"; readonly response: WebhookResponse }
  | { readonly _tag: "Cancel" }

/** The outcome of an attempt, `Cancelled`, or `Finished` when the delivery had already ended. */
export type DeliveryAnswer = AttemptOutcome | "Cancelled" | "Finished"

/** The model's delivery; time in epoch milliseconds. */
export interface DeliveryModelState {
  /** The retry schedule, one delay (ms) per attempt. */
  readonly delays: ReadonlyArray<number>
  /** Pending until it succeeds, exhausts its attempts or is cancelled. */
  readonly status: "pending" | "succeeded" | "failed"
  /** Attempts made so far. */
  readonly attempts: number
  /** When the next attempt is due; null once finished. */
  readonly dueAt: number | null
  /** How many times the delivery used all its attempts (0 or 1). */
  readonly exhaustions: number
  /** Whether it ended by cancellation. */
  readonly cancelled: boolean
}

/** The model of a delivery queued at `queuedAt` (epoch ms) with `schedule`. */
export const initialDeliveryModel = (schedule: RetrySchedule, queuedAt: number): DeliveryModelState => {
  const delays = schedule.map(Duration.toMillis)
  return { delays, status: "pending", attempts: 0, dueAt: queuedAt + (delays[0] ?? 0), exhaustions: 0, cancelled: false }
}

const isSuccess = (response: WebhookResponse): boolean =>
  response._tag === "Answered" && response.status >= 200 && response.status <= 299

const attempt = (d: DeliveryModelState, response: WebhookResponse, nowMillis: number): Transition<DeliveryModelState, DeliveryAnswer> => {
  const attempts = d.attempts + 1
  if (isSuccess(response)) return { state: { ...d, attempts, status: "succeeded", dueAt: null }, answer: "Succeeded" }
  if (attempts >= d.delays.length) {
    return { state: { ...d, attempts, status: "failed", dueAt: null, exhaustions: d.exhaustions + 1 }, answer: "Exhausted" }
  }
  return { state: { ...d, attempts, dueAt: nowMillis + d.delays[attempts]! }, answer: "Retrying" }
}

const apply = (d: DeliveryModelState, trigger: DeliveryTrigger, nowMillis: number): Transition<DeliveryModelState, DeliveryAnswer> => {
  if (d.status !== "pending") return { state: d, answer: "Finished" }
  return trigger._tag === "Attempt"
    ? attempt(d, trigger.response, nowMillis)
    : { state: { ...d, status: "failed", dueAt: null, cancelled: true }, answer: "Cancelled" }
}

const compare = (d: DeliveryModelState, observed: DeliveryState, nowMillis: number): ReadonlyArray<string> => {
  const diff = differences()
  const next = observed.nextAttemptAt === null ? null : DateTime.toEpochMillis(observed.nextAttemptAt)
  diff.field("status", observed.status, d.status)
  diff.field("attempts", observed.attempts, d.attempts)
  diff.field("nextAttemptAt", next, d.dueAt)
  diff.rule("never more attempts than the schedule has delays", observed.attempts <= d.delays.length)
  diff.rule("pending exactly while a next attempt is scheduled", (observed.status === "pending") === (next !== null))
  diff.rule("exhausted at most once", d.exhaustions <= 1)
  diff.rule(
    "exhausted only as failed after the last attempt",
    d.exhaustions === 0 || (observed.status === "failed" && observed.attempts === d.delays.length)
  )
  diff.rule("a cancelled delivery is failed", !d.cancelled || observed.status === "failed")
  diff.rule(
    "due exactly from the scheduled instant on while pending",
    isDue(observed, DateTime.makeUnsafe(nowMillis)) === (d.status === "pending" && d.dueAt !== null && d.dueAt <= nowMillis)
  )
  return diff.list
}

const show = (trigger: DeliveryTrigger): string => {
  if (trigger._tag === "Cancel") return "cancel"
  const { response } = trigger
  return response._tag === "Answered" ? `attempt(HTTP ${response.status})` : `attempt(failed: ${response.error})`
}

/**
 * The reference model of one delivery (see the rules above). Every trigger can happen at any time;
 * the model says what a finished delivery answers. Its boundary is the next attempt's due time.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(retrySchedule, deliveryCommands(), (schedule, cmds) =>
 *   fc.modelRun(() => deliveryModelSetup({ schedule }), cmds)))
 * ```
 */
export const deliveryModel: ReferenceModel<DeliveryModelState, DeliveryTrigger, DeliveryAnswer, DeliveryState> = {
  canApply: () => true,
  apply,
  compare,
  show,
  // When the next attempt comes due: from that instant on the delivery is due.
  boundaries: (d) => (d.dueAt === null ? [] : [d.dueAt])
}
