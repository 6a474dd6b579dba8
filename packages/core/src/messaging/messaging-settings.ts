import { Context, Duration } from "effect"

/** How long after an accepted OTP send the same recipient of the account must wait: 60 seconds. */
export const DEFAULT_OTP_COOLDOWN: Duration.Duration = Duration.seconds(60)

/** Deployment settings of messaging, read at the edge (ARCHITECTURE rule 9, decisions §7). */
export class MessagingSettings extends Context.Service<MessagingSettings, {
  /** `WASL_OTP_COOLDOWN`, default 60 seconds: per account and recipient. */
  readonly otpCooldown: Duration.Duration
}>()("@wasl/core/MessagingSettings") {}
