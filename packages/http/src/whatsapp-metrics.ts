/** The receiver's metric: Meta's callbacks by what became of them. */
import type { WhatsAppReceipt } from "@wasl/core/WhatsApp"
import { type Effect, Metric } from "effect"

/** Callbacks received on `/api/whatsapp/webhook`, by `outcome` (stored, unauthentic, ignored). */
export const whatsAppWebhooksTotal: Metric.Counter<number> = Metric.counter("wasl_whatsapp_webhooks_total", {
  description:
    "WhatsApp callbacks received, by outcome: stored (for the worker), unauthentic (bad or missing signature, answered 401), ignored (signed, but not Meta's shape).",
  incremental: true
})

/** Counts one callback. */
export const countWhatsAppWebhook = (outcome: WhatsAppReceipt): Effect.Effect<void> =>
  Metric.update(Metric.withAttributes(whatsAppWebhooksTotal, { outcome }), 1)
