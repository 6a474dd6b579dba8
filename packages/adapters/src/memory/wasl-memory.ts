/** `WaslMemory`: every port of Wasl over one in-memory store (documented on the layer). */
import { type Duration, Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import {
  type PasswordHasher,
  SecretBox,
  type ServerKeyError,
  type ServerKeyInput,
  ServerKeys,
  TokenHasher
} from "@wasl/core/Auth"
import { DeliveryPolicy } from "@wasl/core/Deliveries"
import { type WaslServices } from "@wasl/core/Deployment"
import { deliveryPolicyOf, otpCooldownOf, type WaslConfigError, type WebhookOptions } from "../deployment/options.ts"
import { PasswordHasherScrypt } from "../password-hasher-scrypt.ts"
import { RepositoriesMemory } from "./repositories-memory.ts"
import { MailerMemory, type MemoryMailbox } from "./mailer-memory.ts"
import { MemoryReceivers } from "./memory-receivers.ts"
import { MediaStoreMemory } from "./media-store-memory.ts"
import { MessagingProviderMemory, type SentMessages } from "./messaging-provider-memory.ts"
import { MessagingSettingsLayer } from "./messaging-settings-layer.ts"
import { type ReviewedTemplates, TemplateReviewMemory } from "./template-review-memory.ts"
import type { MemoryStore } from "./store.ts"
import { WebhookTransportMemory } from "./webhook-transport-memory.ts"
import { WebhookUrlGuardMemory } from "./webhook-url-guard-memory.ts"

/**
 * Options of `WaslMemory.layer`; every one has a default.
 *
 * @example
 * ```ts
 * import { PasswordHasherFast } from "@wasl/adapters"
 * import { WaslMemory } from "@wasl/adapters/memory"
 *
 * // Fast tests: short retry delays, a cheap password hash (never in production).
 * const Wasl = WaslMemory.layer({
 *   webhooks: { retryDelays: "0s,1s,2s,3s,4s,5s", timeout: "1s" },
 *   otpCooldown: "10s",
 *   passwordHasher: PasswordHasherFast
 * })
 * ```
 */
export interface WaslMemoryOptions {
  /** The server key (32 bytes or 64 hexadecimal characters). Default: a random key for this layer. */
  readonly secretKey?: ServerKeyInput | undefined
  /** The retry delays and the attempt timeout of webhook deliveries (by default six attempts over about a day, 30 seconds each). */
  readonly webhooks?: Pick<WebhookOptions, "retryDelays" | "timeout"> | undefined
  /** How long after an accepted OTP send the same recipient gets 429, as text (`10s`) or a duration. Default 60 s. */
  readonly otpCooldown?: string | Duration.Duration | undefined
  /** How passwords are hashed. Default: scrypt (`node:crypto`, also in Deno and Bun). */
  readonly passwordHasher?: Layer.Layer<PasswordHasher> | undefined
}

/**
 * What `WaslMemory.layer` provides: every port (`WaslServices`), and what a test or an embedder
 * looks at instead of a database and a network: the store (`MemoryStore`), the webhook endpoints
 * and the requests they received (`MemoryReceivers`), the mails sent (`MemoryMailbox`) and the
 * WhatsApp messages sent (`SentMessages`), and the templates submitted for review
 * (`ReviewedTemplates`, through which a test plays Meta's reviewer).
 */
export type WaslMemoryServices = WaslServices | MemoryStore | MemoryReceivers | MemoryMailbox | SentMessages | ReviewedTemplates

/**
 * Wasl all in memory, in one layer: every port the use-cases of `@wasl/core`, the HTTP handlers of
 * `@wasl/http` and the delivery worker of `@wasl/worker` need, over one fresh in-memory store — no
 * database, no network, no files. For tests (deterministic under `TestClock`), for trying Wasl out,
 * and for embedding where the data need not outlive the process. Runs on Node, Deno and Bun.
 *
 * The store has the semantics of the PostgreSQL adapters (the same contract suites pass on both):
 * transactions roll back, ids and orderings are the same. Webhook requests go to in-memory
 * endpoints (`MemoryReceivers`: register a URL with its secret and it answers like a correct
 * receiver; any other URL refuses the connection), mail to a `MemoryMailbox`, WhatsApp sends to
 * `SentMessages` (codes included). The layer fails only when `secretKey` is malformed
 * (`ServerKeyError`) or a webhook setting does not parse (`WaslConfigError`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { bootstrapAccount } from "@wasl/core/Accounts"
import { authenticateToken } from "@wasl/core/Auth"
import { createWebhook, validateWebhook } from "@wasl/core/Webhooks"
 * import { MemoryReceivers, WaslMemory } from "@wasl/adapters/memory"
 *
 * const program = Effect.gen(function*() {
 *   const { token } = yield* bootstrapAccount({
 *     account: "Acme",
 *     email: "owner@acme.test",
 *     password: "correct horse battery",
 *     plan: "business",
 *     otpCredits: 0
 *   })
 *   const owner = yield* authenticateToken(token)
 *   const webhook = yield* createWebhook(owner, { URL: "https://hooks.acme.test/wasl", events: ["deal-created"] })
 *   // An in-memory endpoint that holds the webhook's secret answers the validation challenge.
 *   yield* MemoryReceivers.use((receivers) => receivers.register(webhook.URL, webhook.secret))
 *   yield* validateWebhook(owner, webhook.id)
 *   const sent = yield* MemoryReceivers.use((receivers) => receivers.sent)
 *   console.log(sent.map((exchange) => exchange.response))
 * })
 *
 * Effect.runPromise(program.pipe(Effect.provide(WaslMemory.layer())))
 * ```
 */
export const WaslMemory: {
  /** Every port in memory; each build of the layer is a new, empty store. */
  readonly layer: (options?: WaslMemoryOptions) => Layer.Layer<WaslMemoryServices, ServerKeyError | WaslConfigError>
} = {
  layer: (options = {}) =>
    Layer.unwrap(Effect.gen(function*() {
      const policy = yield* deliveryPolicyOf(options.webhooks)
      const otpCooldown = yield* otpCooldownOf(options.otpCooldown)
      const master = options.secretKey ?? (yield* SecureRandom.SecureRandom.use((random) => random.randomBytes(32)))
      const keyed = Layer.unwrap(Effect.map(ServerKeys, (keys) =>
        Layer.mergeAll(
          SecretBox.layerAesGcm(keys.key("secret-box")),
          MessagingSettingsLayer({ otpCooldown, otpCodeKey: keys.key("otp-code") })
        ))).pipe(Layer.provide(ServerKeys.layer(master)))
      return Layer.mergeAll(
        RepositoriesMemory,
        keyed,
        WebhookTransportMemory.pipe(Layer.provideMerge(MemoryReceivers.layer)),
        WebhookUrlGuardMemory(),
        MailerMemory,
        MessagingProviderMemory,
        TemplateReviewMemory,
        MediaStoreMemory,
        options.passwordHasher ?? PasswordHasherScrypt,
        TokenHasher.layerWebCrypto,
        Layer.succeed(DeliveryPolicy, policy)
      ).pipe(Layer.provideMerge(SecureRandom.layerWebCrypto))
    }).pipe(Effect.provide(SecureRandom.layerWebCrypto)))
}
