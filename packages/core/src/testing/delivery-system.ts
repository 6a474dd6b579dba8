/**
 * The delivery system under test: the core's real transitions (`attemptFinished`, `cancelled`)
 * applied to a stored delivery, the way the delivery worker applies them.
 */
import type { DateTime } from "effect"
import { Result } from "effect"
import {
  attemptFinished,
  attemptSucceeded,
  cancelled,
  type DeliveryState,
  type RetrySchedule
} from "../webhooks/delivery-state.ts"
import type { DeliveryAnswer, DeliveryTrigger } from "./delivery-model.ts"
import type { SystemUnderTest, Transition } from "./reference-model.ts"
import { type SnapshotStore, storedSystem } from "./snapshot-store.ts"

/** A system under test for the delivery model: it holds one delivery. */
export type DeliverySystem = SystemUnderTest<DeliveryTrigger, DeliveryAnswer, DeliveryState>

/**
 * The transition of a delivery under `schedule`, with the core's rules: the next state and the
 * answer (`Finished` when the core refuses a finished delivery).
 */
export const applyDeliveryTrigger = (
  schedule: RetrySchedule
): (state: DeliveryState, trigger: DeliveryTrigger, now: DateTime.Utc) => Transition<DeliveryState, DeliveryAnswer> =>
(state, trigger, now) => {
  if (trigger._tag === "Cancel") {
    const next = cancelled(state)
    return Result.isFailure(next) ? { state, answer: "Finished" } : { state: next.success, answer: "Cancelled" }
  }
  const next = attemptFinished(state, attemptSucceeded(trigger.response), now, schedule)
  return Result.isFailure(next) ? { state, answer: "Finished" } : { state: next.success.state, answer: next.success.outcome }
}

/**
 * The core's delivery transitions under `schedule` over `store`, which must start with the delivery
 * as `queued(start, schedule)` made it (`deliveryModelSetup` builds that store when you give none).
 *
 * @example
 * ```ts
 * const store = myDeliveryStore(queued(MODEL_START, schedule))
 * fc.modelRun(() => deliveryModelSetup({ schedule, system: deliverySystem(schedule, store) }), cmds)
 * ```
 */
export const deliverySystem = (schedule: RetrySchedule, store: SnapshotStore<DeliveryState>): DeliverySystem =>
  storedSystem(store, applyDeliveryTrigger(schedule))
