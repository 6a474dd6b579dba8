import { Context, type Duration } from "effect"

/** Deployment settings of messaging, read at the edge (ARCHITECTURE rule 9, decisions §7). */
export class MessagingSettings extends Context.Service<MessagingSettings, {
  /** `WASL_OTP_COOLDOWN`, default 60 seconds: per account and recipient. */
  readonly otpCooldown: Duration.Duration
}>()("@wasl/core/MessagingSettings") {}
