/**
 * The ports beyond storage for a deployment on Node, from its options: randomness and hashing,
 * the secrets under the server key, the webhook network (URL guard and HTTPS transport), mail,
 * WhatsApp sending and the messaging settings, and the delivery policy.
 */
import { type Duration, Effect, Layer, Redacted } from "effect"
import type { Mac } from "effect/crypto"
import { SecretBox, ServerKeys } from "@wasl/core/Auth"
import { DeliveryPolicy, type DeliveryPolicyShape } from "@wasl/core/Deliveries"
import { type WaslRepositories, type WaslServices } from "@wasl/core/Deployment"
import { type QueueSignals } from "@wasl/core/Events"
import { type Mailer } from "@wasl/core/Mail"
import { type NotificationFeed } from "@wasl/core/Notifications"
import { join } from "node:path"
import { MailerJsonLines } from "../mail/mailer-json-lines.ts"
import { MailerSmtp } from "../mail/mailer-smtp.ts"
import { MacNode } from "../mac-node.ts"
import { MediaStoreFile } from "../media/media-store-file.ts"
import { MessagingLive } from "../messaging/messaging-provider-live.ts"
import { PasswordHasherScrypt } from "../password-hasher-scrypt.ts"
import { TokenHasherNode } from "../token-hasher-node.ts"
import { WebhookTransportHttp } from "../webhooks/webhook-transport-http.ts"
import { WebhookUrlGuardDns } from "../webhooks/webhook-url-guard-dns.ts"
import { DEFAULT_DATA_DIR, type MailOptions, type WaslOptions } from "./options.ts"
import { SecureRandomPooled } from "../secure-random-pooled.ts"

/**
 * What `nodeServices` provides: every port of `WaslServices` but storage and the worker's signals,
 * and the `Mac` that core's webhook signatures use when a host provides one (`MacNode`).
 */
export type NodeServices = Exclude<WaslServices, WaslRepositories | QueueSignals | NotificationFeed> | Mac.Mac

/** SMTP when a server is configured, else JSON lines in the outbox file. */
export const mailerOf = (mail: MailOptions, dataDir: string): Layer.Layer<Mailer> => {
  const from = mail.from ?? "wasl@localhost"
  return mail.smtpUrl !== undefined && mail.smtpUrl !== ""
    ? MailerSmtp({
      url: Redacted.isRedacted(mail.smtpUrl) ? Redacted.value(mail.smtpUrl) : mail.smtpUrl,
      from,
      caFile: mail.smtpCaFile
    })
    : MailerJsonLines(mail.outbox ?? join(dataDir, "mail-outbox.jsonl"))
}

/**
 * The ports beyond storage, over the master key (already checked), the delivery policy and the OTP
 * cooldown (already parsed). A building block of `WaslPostgres` and `WaslEmbedded`, exported for hosts that compose
 * their own layers around another storage.
 */
export const nodeServices = (
  options: WaslOptions,
  master: Uint8Array,
  policy: DeliveryPolicyShape,
  otpCooldown: Duration.Duration
): Layer.Layer<NodeServices> => {
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR
  const allowPrivate = options.webhooks?.allowPrivateAddresses === true
  const keys = ServerKeys.layer(master).pipe(Layer.orDie)
  const keyed = Layer.unwrap(Effect.map(ServerKeys, (keys) =>
    Layer.mergeAll(
      SecretBox.layerAesGcm(keys.key("secret-box")),
      MessagingLive({
        sandboxOutbox: options.messaging?.sandboxOutbox ?? join(dataDir, "sandbox-outbox.jsonl"),
        graphUrl: options.messaging?.whatsappGraphUrl,
        otpCooldown,
        otpCodeKey: keys.key("otp-code")
      })
    )))
  return Layer.mergeAll(
    keyed.pipe(Layer.provide(keys)),
    WebhookUrlGuardDns({ allowPrivate }),
    WebhookTransportHttp({ allowPrivate, caFile: options.webhooks?.caFile }),
    mailerOf(options.mail ?? {}, dataDir),
    MediaStoreFile(options.messaging?.mediaDir ?? join(dataDir, "media")),
    Layer.succeed(DeliveryPolicy, policy),
    PasswordHasherScrypt,
    TokenHasherNode,
    MacNode
  ).pipe(Layer.provideMerge(SecureRandomPooled))
}
