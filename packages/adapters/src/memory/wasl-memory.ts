/**
 * Wasl all in memory, in one layer: every port the use-cases, the HTTP handlers and the delivery
 * worker need (`WaslServices`), over one fresh in-memory store — no database, no network, no
 * files. For tests (deterministic under `TestClock`), for trying Wasl out, and for embedding where
 * the data need not outlive the process. Runs on Node, Deno and Bun.
 *
 * Webhook requests go to in-memory endpoints (`MemoryReceivers`: register a URL with its secret
 * and it answers like a correct receiver), mail to a `MemoryMailbox`, WhatsApp sends to
 * `SentMessages` (codes included): the layer provides those services too, to look at.
 */
import { type Duration, Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import {
  DeliveryPolicy,
  type PasswordHasher,
  SecretBox,
  type ServerKeyError,
  type ServerKeyInput,
  ServerKeys,
  TokenHasher,
  type WaslServices
} from "@wasl/core"
import { deliveryPolicyOf, type WaslConfigError, type WebhookOptions } from "../deployment/options.ts"
import { PasswordHasherScrypt } from "../password-hasher-scrypt.ts"
import { RepositoriesMemory } from "./repositories-memory.ts"
import { MailerMemory, type MemoryMailbox } from "./mailer-memory.ts"
import { MemoryReceivers } from "./memory-receivers.ts"
import { MessagingProviderMemory, type SentMessages } from "./messaging-provider-memory.ts"
import { MessagingSettingsLayer } from "./messaging-settings-layer.ts"
import type { MemoryStore } from "./store.ts"
import { WebhookTransportMemory } from "./webhook-transport-memory.ts"
import { WebhookUrlGuardMemory } from "./webhook-url-guard-memory.ts"

/** Options of `WaslMemory.layer`; every one has a default. */
export interface WaslMemoryOptions {
  /** The server key (32 bytes or 64 hexadecimal characters). Default: a random key for this layer. */
  readonly secretKey?: ServerKeyInput | undefined
  /** The retry delays and the attempt timeout of webhook deliveries (the spec's by default). */
  readonly webhooks?: Pick<WebhookOptions, "retryDelays" | "timeout"> | undefined
  /** How long after an accepted OTP send the same recipient gets 429. Default 60 s. */
  readonly otpCooldown?: Duration.Input | undefined
  /** How passwords are hashed. Default: scrypt (`node:crypto`, also in Deno and Bun). */
  readonly passwordHasher?: Layer.Layer<PasswordHasher> | undefined
}

/** What `WaslMemory.layer` provides: every port, and the in-memory store and outboxes to look at. */
export type WaslMemoryServices = WaslServices | MemoryStore | MemoryReceivers | MemoryMailbox | SentMessages

/** Wasl over one fresh in-memory store. */
export const WaslMemory: {
  /** Every port in memory; each build of the layer is a new, empty store. */
  readonly layer: (options?: WaslMemoryOptions) => Layer.Layer<WaslMemoryServices, ServerKeyError | WaslConfigError>
} = {
  layer: (options = {}) =>
    Layer.unwrap(Effect.gen(function*() {
      const policy = yield* deliveryPolicyOf(options.webhooks)
      const master = options.secretKey ?? (yield* SecureRandom.SecureRandom.use((random) => random.randomBytes(32)))
      const keyed = Layer.unwrap(Effect.map(ServerKeys, (keys) =>
        Layer.mergeAll(
          SecretBox.layerAesGcm(keys.key("secret-box")),
          MessagingSettingsLayer({ otpCooldown: options.otpCooldown, otpCodeKey: keys.key("otp-code") })
        ))).pipe(Layer.provide(ServerKeys.layer(master)))
      return Layer.mergeAll(
        RepositoriesMemory,
        keyed,
        WebhookTransportMemory.pipe(Layer.provideMerge(MemoryReceivers.layer)),
        WebhookUrlGuardMemory(),
        MailerMemory,
        MessagingProviderMemory,
        options.passwordHasher ?? PasswordHasherScrypt,
        TokenHasher.layerWebCrypto,
        Layer.succeed(DeliveryPolicy, policy)
      ).pipe(Layer.provideMerge(SecureRandom.layerWebCrypto))
    }).pipe(Effect.provide(SecureRandom.layerWebCrypto)))
}
