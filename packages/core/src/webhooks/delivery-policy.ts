/**
 * The delivery settings a deployment may change: the retry delays (`WASL_RETRY_DELAYS`) and the
 * per-attempt timeout (`WASL_DELIVERY_TIMEOUT`). A reference with the standard values as its
 * default, so only the edge that reads configuration provides it.
 */
import { Context, Duration } from "effect"
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from "./delivery-state.ts"

/** How long a delivery attempt waits for the endpoint's answer by default: 30 s. */
export const DEFAULT_DELIVERY_TIMEOUT: Duration.Duration = Duration.seconds(30)

/** The delivery settings. */
export interface DeliveryPolicyShape {
  /** The delay before each attempt (`WASL_RETRY_DELAYS`). */
  readonly schedule: RetrySchedule
  /** How long an attempt waits for the answer (`WASL_DELIVERY_TIMEOUT`). */
  readonly timeout: Duration.Duration
}

/**
 * The delivery settings in effect: the default schedule and a 30 s timeout unless a deployment
 * provides others.
 *
 * @example
 * ```ts
 * const quick = { schedule: DEFAULT_RETRY_SCHEDULE, timeout: Duration.seconds(5) }
 * const run = Effect.provideService(program, DeliveryPolicy, quick)
 * ```
 */
export const DeliveryPolicy: Context.Reference<DeliveryPolicyShape> = Context.Reference<DeliveryPolicyShape>(
  "@wasl/core/DeliveryPolicy",
  { defaultValue: () => ({ schedule: DEFAULT_RETRY_SCHEDULE, timeout: DEFAULT_DELIVERY_TIMEOUT }) }
)
