/**
 * The ports webhook management, delivery and notices need beyond the repositories: SecretBox
 * under the server key, the URL guard and the HTTPS transport under the network switches, and
 * the Mailer of the mail configuration. Configuration is read here, at the edge.
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { SecureRandom } from "effect/crypto"
import { join } from "node:path"
import { MailerJsonLines, MailerSmtp, WebhookTransportHttp, WebhookUrlGuardDns } from "@wasl/adapters"
import { SecretBox } from "@wasl/core"
import { MailConfig, WebhookNetworkConfig } from "./config.ts"
import { serverKey, ServerKeys } from "./server-keys.ts"

export const SecretBoxLive = Layer.unwrap(Effect.map(serverKey("secret-box"), SecretBox.layerAesGcm)).pipe(
  Layer.provide([ServerKeys.layer, SecureRandom.layerWebCrypto])
)

export const WebhookNetworkLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* WebhookNetworkConfig
  return Layer.mergeAll(
    WebhookUrlGuardDns({ allowPrivate: config.allowPrivate }),
    WebhookTransportHttp({ allowPrivate: config.allowPrivate, caFile: Option.getOrUndefined(config.caFile) })
  )
}))

export const MailerLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* MailConfig
  return Option.match(config.smtpUrl, {
    onSome: (url) => MailerSmtp({ url: Redacted.value(url), from: config.from }),
    onNone: () => MailerJsonLines(Option.getOrElse(config.outbox, () => join(config.dataDir, "mail-outbox.jsonl")))
  })
}))

export const WebhookServicesLive = Layer.mergeAll(SecretBoxLive, WebhookNetworkLive, MailerLive)
