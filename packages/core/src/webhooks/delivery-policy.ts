/**
 * The delivery settings a deployment may change (decisions §6): the retry delays
 * (`WASL_RETRY_DELAYS`) and the per-attempt timeout (`WASL_DELIVERY_TIMEOUT`). A reference with
 * the spec's values as its default, so only the edge that reads configuration provides it.
 */
import { Context, Duration } from "effect"
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from "./delivery-state.ts"

/** The request timeout of spec §6.3 and §8. */
export const DEFAULT_DELIVERY_TIMEOUT: Duration.Duration = Duration.seconds(30)

export interface DeliveryPolicyShape {
  readonly schedule: RetrySchedule
  readonly timeout: Duration.Duration
}

export const DeliveryPolicy = Context.Reference<DeliveryPolicyShape>("@wasl/core/DeliveryPolicy", {
  defaultValue: () => ({ schedule: DEFAULT_RETRY_SCHEDULE, timeout: DEFAULT_DELIVERY_TIMEOUT })
})
