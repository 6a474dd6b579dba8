/**
 * The MessagingProvider of a running service: each call goes to the adapter of its sending
 * number's provider (`sandbox` or `whatsapp_cloud`), and the messaging settings.
 */
import {
  MessagingProvider,
  type MessagingSettings,
  type ProviderPlatform,
  TemplateReview
} from "@wasl/core/Messaging"
import { type OtpCodeHasher } from "@wasl/core/Otp"
import { WhatsAppInbox } from "@wasl/core/WhatsApp"
import { type Duration, Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import { MessagingSettingsLayer } from "../memory/messaging-settings-layer.ts"
import { makeSandboxProvider, type SandboxCallbacks } from "./messaging-provider-sandbox.ts"
import { DEFAULT_GRAPH_URL, makeWhatsAppCloudProvider } from "./messaging-provider-whatsapp-cloud.ts"
import { makeWhatsAppCloudTemplateReview } from "./template-review-whatsapp-cloud.ts"

/** The messaging settings of a running service, each from its environment variable. */
export interface MessagingConfig {
  /** `WASL_SANDBOX_OUTBOX`: the sandbox provider's JSON-lines file. */
  readonly sandboxOutbox: string
  /** `WASL_WHATSAPP_GRAPH_URL`, default https://graph.facebook.com/v21.0. */
  readonly graphUrl?: string | undefined
  /** `WASL_OTP_COOLDOWN`, default 60 seconds. */
  readonly otpCooldown: Duration.Duration
  /** The server's "otp-code" key (32 bytes). */
  readonly otpCodeKey: Uint8Array
}

/**
 * Where the sandbox hands the status callbacks of what it sent: the WhatsApp inbox of the sending
 * call's context, which a running service always provides, so the statuses travel the path of
 * Meta's through the worker (and, inside the send's transaction, commit with its message). Where
 * no inbox is provided, the sandbox only writes its outbox.
 */
const inboxCallbacks: SandboxCallbacks = (body, receivedAt) =>
  Effect.flatMap(
    Effect.serviceOption(WhatsAppInbox),
    Option.match({ onNone: () => Effect.void, onSome: (inbox) => inbox.insert(body, receivedAt) })
  )

/**
 * The `MessagingProvider` of a running service: each send goes to the adapter of its sending
 * number's provider — `whatsapp_cloud` to the WhatsApp Cloud API at `graphUrl`, `sandbox` to the
 * JSON-lines file `sandboxOutbox`, its statuses to the WhatsApp inbox. Needs `SecureRandom` (the
 * sandbox's message ids).
 */
export const MessagingProviderLive = (config: Pick<MessagingConfig, "sandboxOutbox" | "graphUrl">): Layer.Layer<
  MessagingProvider,
  never,
  SecureRandom.SecureRandom
> =>
  Layer.effect(
    MessagingProvider,
    Effect.gen(function*() {
      const sandbox = yield* makeSandboxProvider(config.sandboxOutbox, inboxCallbacks)
      const cloud = makeWhatsAppCloudProvider(config.graphUrl ?? DEFAULT_GRAPH_URL)
      const of = (platform: ProviderPlatform) => platform.provider === "whatsapp_cloud" ? cloud : sandbox
      return MessagingProvider.of({
        send: (request) => of(request.platform).send(request),
        sendText: (platform, to, text) => of(platform).sendText(platform, to, text),
        markRead: (platform, id) => of(platform).markRead(platform, id),
        fetchMedia: (platform, mediaId, maxBytes) => of(platform).fetchMedia(platform, mediaId, maxBytes),
        readNumber: (platform) => of(platform).readNumber(platform)
      })
    })
  )

/**
 * The template review of a running service: Meta's, through the WhatsApp Cloud API at `graphUrl`
 * (only whatsapp_cloud numbers' templates are submitted).
 */
export const TemplateReviewLive = (config: Pick<MessagingConfig, "graphUrl">): Layer.Layer<TemplateReview> =>
  Layer.succeed(TemplateReview, TemplateReview.of(makeWhatsAppCloudTemplateReview(config.graphUrl ?? DEFAULT_GRAPH_URL)))

/** Provider, template review, settings and the OTP code hasher, from the deployment's configuration. */
export const MessagingLive = (
  config: MessagingConfig
): Layer.Layer<MessagingProvider | TemplateReview | MessagingSettings | OtpCodeHasher> =>
  Layer.mergeAll(
    MessagingProviderLive(config),
    TemplateReviewLive(config),
    MessagingSettingsLayer({ otpCooldown: config.otpCooldown, otpCodeKey: config.otpCodeKey })
  ).pipe(Layer.provide(SecureRandom.layerWebCrypto))
