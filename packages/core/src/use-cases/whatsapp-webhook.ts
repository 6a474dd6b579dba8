/**
 * The processing of one stored WhatsApp callback (a raw body of the inbox), which the worker runs
 * for each body it claims (`drainWhatsAppInbox`).
 *
 * The seam between the receiver and the processing: the receiver has checked the signature and
 * Meta's outer shape; this reads the entries. Its name and first two parameters are what the
 * worker calls; what it does (contacts, channels, messages, statuses, media) and the services it
 * needs (`WhatsAppWebhookServices`, which the worker's services include) belong to the processing.
 * Until it is written it only parses the body.
 */
import { type DateTime, Effect } from "effect"

/** The ports `processWhatsAppWebhook` runs on (the worker's services include them). */
export type WhatsAppWebhookServices = never

/**
 * Processes one callback received at `receivedAt`. Never fails: a body it cannot use is logged and
 * dropped by the processing itself; a defect makes the worker retry the body, a few times, with a
 * backoff. Idempotent: a body may be processed more than once.
 */
export const processWhatsAppWebhook = (
  body: string,
  _receivedAt: DateTime.Utc
): Effect.Effect<void, never, WhatsAppWebhookServices> =>
  Effect.asVoid(Effect.sync(() => JSON.parse(body) as unknown))
