/**
 * The webhook-side ports of the test server: SecretBox under a fixed test key, the DNS URL guard
 * (private addresses allowed unless a suite asks otherwise, so local receivers are reachable), a
 * programmable in-process WebhookTransport, and the JSON-lines Mailer in a temporary file.
 */
import { MailerJsonLines } from "@wasl/adapters/Mail"
import { WebhookUrlGuardDns } from "@wasl/adapters/Webhooks"
import { SecretBox } from "@wasl/core/Auth"
import { type WebhookRequest, type WebhookResponse, WebhookTransport } from "@wasl/core/Webhooks"
import { Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const TEST_SECRET_KEY = new Uint8Array(32).fill(7)

/** Records every request and answers with `respond` (a failed connection until a test sets one). */
export class FakeWebhookTransport {
  readonly requests: Array<WebhookRequest> = []
  respond: (request: WebhookRequest) => WebhookResponse | Promise<WebhookResponse> = () => ({
    _tag: "Failed",
    error: "connect ECONNREFUSED",
    durationMillis: 1
  })
  readonly layer = Layer.succeed(
    WebhookTransport,
    WebhookTransport.of({
      post: (request) =>
        Effect.promise(async () => {
          this.requests.push(request)
          return await this.respond(request)
        })
    })
  )
}

export interface WebhookServiceOptions {
  /** Default true: local receivers resolve to loopback. */
  readonly allowPrivate?: boolean
  readonly transport?: FakeWebhookTransport
}

export const webhookTestServices = (options: WebhookServiceOptions = {}) => {
  const mailOutbox = join(mkdtempSync(join(tmpdir(), "wasl-mail-")), "mail-outbox.jsonl")
  const transport = options.transport ?? new FakeWebhookTransport()
  const layer = Layer.mergeAll(
    SecretBox.layerAesGcm(TEST_SECRET_KEY).pipe(Layer.provide(SecureRandom.layerWebCrypto)),
    WebhookUrlGuardDns({ allowPrivate: options.allowPrivate ?? true }),
    transport.layer,
    MailerJsonLines(mailOutbox)
  )
  return { layer, transport, mailOutbox }
}
