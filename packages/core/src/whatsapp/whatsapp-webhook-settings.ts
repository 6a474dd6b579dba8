/**
 * What Wasl needs to receive Meta's WhatsApp Cloud API webhooks: the Meta app's secret, which
 * signs every callback (`X-Hub-Signature-256`), and the verify token Meta echoes when the
 * callback URL is registered. Both or neither: without them the receiving routes do not exist.
 */
import { Context, type Redacted } from "effect"

/** The Meta app's secret and the callback's verify token (`WASL_WHATSAPP_APP_SECRET`, `WASL_WHATSAPP_VERIFY_TOKEN`). */
export interface WhatsAppWebhookSecrets {
  /** The Meta app's secret: the HMAC-SHA256 key of `X-Hub-Signature-256`. */
  readonly appSecret: Redacted.Redacted<string>
  /** The token Meta sends as `hub.verify_token` when it verifies the callback URL. */
  readonly verifyToken: Redacted.Redacted<string>
}

/** The receiver's secrets; none by default, and then `/api/whatsapp/webhook` answers 404. */
export const WhatsAppWebhookSettings: Context.Reference<WhatsAppWebhookSecrets | undefined> = Context.Reference<
  WhatsAppWebhookSecrets | undefined
>("@wasl/core/WhatsAppWebhookSettings", { defaultValue: () => undefined })
