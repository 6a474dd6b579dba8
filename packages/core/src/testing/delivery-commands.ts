/**
 * The delivery model-based property's pieces: the commands fast-check draws and the setup each run
 * starts from.
 */
import { DateTime } from "effect"
import type * as fc from "fast-check"
import { DEFAULT_RETRY_SCHEDULE, type DeliveryState, queued, type RetrySchedule } from "../webhooks/delivery-state.ts"
import { deliveryTrigger } from "./delivery-arbitraries.ts"
import {
  type DeliveryAnswer,
  deliveryModel,
  type DeliveryModelState,
  type DeliveryTrigger,
  initialDeliveryModel
} from "./delivery-model.ts"
import { type DeliverySystem, deliverySystem } from "./delivery-system.ts"
import {
  asyncModelCommands,
  type AsyncModelCommand,
  type CommandDefaults,
  type ModelCommand,
  type ModelCommandsOptions,
  modelCommands,
  type ModelRun,
  MODEL_START,
  modelSetup
} from "./model-run.ts"
import { memoryStore } from "./snapshot-store.ts"
import { clockStep } from "./time-arbitraries.ts"

/** A command of the delivery property. */
export type DeliveryCommand = ModelCommand<DeliveryModelState, DeliveryTrigger, DeliveryAnswer, DeliveryState>

/** A command of the delivery property for `fc.asyncModelRun`. */
export type DeliveryAsyncCommand = AsyncModelCommand<DeliveryModelState, DeliveryTrigger, DeliveryAnswer, DeliveryState>

const DEFAULTS: CommandDefaults<DeliveryTrigger> = {
  triggers: deliveryTrigger,
  // A little over a day: the longest default delay.
  advance: clockStep(90_000_000),
  constraints: { maxCommands: 30, size: "max" }
}

/**
 * Random runs of the delivery model for `fc.modelRun`: `deliveryTrigger`s (attempts ending every
 * way, cancellations) and clock steps, half of up to 25 hours, half to when the next attempt comes
 * due or 1 ms either side; after each step the system's answer and the stored delivery are compared
 * with the model, and the invariants checked. Options change the triggers, the clock steps
 * (`advance`, `toBoundary`) and fast-check's command constraints (at most 30 commands by default).
 *
 * @example
 * ```ts
 * fc.assert(fc.property(retrySchedule(), deliveryCommands(), (schedule, cmds) =>
 *   fc.modelRun(() => deliveryModelSetup({ schedule }), cmds)))
 * ```
 */
export const deliveryCommands = (options: ModelCommandsOptions<DeliveryTrigger> = {}): fc.Arbitrary<Iterable<DeliveryCommand>> =>
  modelCommands(deliveryModel, DEFAULTS, options)

/** `deliveryCommands` for a system whose Effects are asynchronous, run with `fc.asyncModelRun`. */
export const deliveryAsyncCommands = (
  options: ModelCommandsOptions<DeliveryTrigger> = {}
): fc.Arbitrary<Iterable<DeliveryAsyncCommand>> => asyncModelCommands(deliveryModel, DEFAULTS, options)

/** Where a delivery run starts: its schedule, when it was queued, and the system under test. */
export interface DeliverySetupOptions {
  /** DEFAULT_RETRY_SCHEDULE unless given. */
  readonly schedule?: RetrySchedule
  /** When the delivery was queued (MODEL_START by default); the run's clock starts there. */
  readonly start?: DateTime.Utc
  /** The system under test, holding `queued(start, schedule)`; by default `deliverySystem` over a variable. */
  readonly system?: DeliverySystem
}

/**
 * A fresh start for one run of the delivery property: a delivery queued at `start` with `schedule`,
 * in the model and in the system.
 *
 * @example
 * ```ts
 * fc.modelRun(deliveryModelSetup, cmds)
 * fc.modelRun(() => deliveryModelSetup({ schedule, start }), cmds)
 * ```
 */
export const deliveryModelSetup = (
  options: DeliverySetupOptions = {}
): { model: ModelRun<DeliveryModelState>; real: DeliverySystem } => {
  const { schedule = DEFAULT_RETRY_SCHEDULE, start = MODEL_START } = options
  return modelSetup(
    initialDeliveryModel(schedule, DateTime.toEpochMillis(start)),
    options.system ?? deliverySystem(schedule, memoryStore(queued(start, schedule))),
    start
  )
}
