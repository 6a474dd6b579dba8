import { Context, Duration } from "effect"

/** How long after an accepted OTP send the same recipient of the account must wait: 60 seconds. */
export const DEFAULT_OTP_COOLDOWN: Duration.Duration = Duration.seconds(60)

/** The messaging settings a deployment may change. */
export interface MessagingSettingsShape {
  /** `WASL_OTP_COOLDOWN`, default 60 seconds: per account and recipient. */
  readonly otpCooldown: Duration.Duration
}

const MessagingSettingsBase: Context.ServiceClass<
  MessagingSettings,
  "@wasl/core/MessagingSettings",
  MessagingSettingsShape
> = Context.Service<MessagingSettings, MessagingSettingsShape>()("@wasl/core/MessagingSettings")

/**
 * Deployment settings of messaging, read from the environment by the application that starts the
 * service and provided to the use-cases.
 */
export class MessagingSettings extends MessagingSettingsBase {}
