/**
 * The delivery worker as a layer over the app's services: the delivery policy from
 * configuration (`WASL_RETRY_DELAYS`, `WASL_DELIVERY_TIMEOUT`; a bad value stops the start with a
 * message naming the variable), `LISTEN/NOTIFY` wake-ups, and `runDeliveryWorker` in the layer's
 * scope, so releasing the layer (SIGTERM) stops the loops and releases in-flight leases.
 */
import { DeliveryPolicy, parseDurationText, parseRetrySchedule } from "@wasl/core"
import { QueueSignalsPg } from "@wasl/adapters"
import { DeliveryConfig } from "@wasl/app-server"
import { type DeliveryWorkerOptions, runDeliveryWorker } from "@wasl/worker"
import { Effect, Layer, Option, Result } from "effect"

/** The configured retry schedule and timeout, or a failure naming the bad variable. */
export const deliveryPolicyFromConfig = Effect.gen(function*() {
  const config = yield* DeliveryConfig
  const schedule = parseRetrySchedule(config.retryDelays)
  if (Result.isFailure(schedule)) return yield* Effect.fail(new Error(`WASL_RETRY_DELAYS: ${schedule.failure}`))
  const timeout = parseDurationText(config.timeout)
  if (Option.isNone(timeout)) {
    return yield* Effect.fail(new Error(`WASL_DELIVERY_TIMEOUT: expected a duration such as 30s, received "${config.timeout}"`))
  }
  return { schedule: schedule.success, timeout: timeout.value }
})

/** Runs the worker while the layer lives. Needs the services of `AppServicesLive`. */
export const DeliveryWorkerLive = (options: DeliveryWorkerOptions = {}) =>
  Layer.unwrap(Effect.gen(function*() {
    const policy = yield* deliveryPolicyFromConfig
    return Layer.effectDiscard(runDeliveryWorker(options)).pipe(
      Layer.provide(QueueSignalsPg),
      Layer.provide(Layer.succeed(DeliveryPolicy, policy))
    )
  }))
