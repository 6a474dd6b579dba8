import { DEFAULT_OTP_COOLDOWN, MessagingSettings } from "@wasl/core/Messaging"
import { OtpCodeHasher } from "@wasl/core/Otp"
import { Duration, Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"

/** Options of `MessagingSettingsLayer`; each has a default. */
export interface MessagingSettingsOptions {
  /** Per account and recipient; default 60 seconds. */
  readonly otpCooldown?: Duration.Input | undefined
  /**
   * The key managed codes are hashed under (at least 32 bytes). Default: a fresh random key, so
   * codes stored before the layer was built do not verify after — fine for a store that does not
   * outlive the process either; give a key when the store does.
   */
  readonly otpCodeKey?: Uint8Array | undefined
}

/**
 * `MessagingSettings` and the `OtpCodeHasher`, from options: the deployment's side of messaging.
 * Needs `SecureRandom` (for the default key). Used by every deployment layer, memory or not.
 */
export const MessagingSettingsLayer = (
  options: MessagingSettingsOptions = {}
): Layer.Layer<MessagingSettings | OtpCodeHasher, never, SecureRandom.SecureRandom> =>
  Layer.mergeAll(
    Layer.succeed(
      MessagingSettings,
      MessagingSettings.of({ otpCooldown: Duration.fromInputUnsafe(options.otpCooldown ?? DEFAULT_OTP_COOLDOWN) })
    ),
    options.otpCodeKey === undefined
      ? Layer.unwrap(
        SecureRandom.SecureRandom.use((random) => Effect.map(random.randomBytes(32), OtpCodeHasher.layerHmacSha256))
      )
      : OtpCodeHasher.layerHmacSha256(options.otpCodeKey)
  )
