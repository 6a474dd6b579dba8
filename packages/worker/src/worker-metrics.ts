/**
 * The worker's metrics: recorded delivery attempts by result, how long after its event a
 * delivery's first attempt started, the stored WhatsApp callbacks processed, retried or dropped, and
 * what their processing found in them. They live in the process that runs the worker: `npm start`
 * serves them at the server's `/metrics`, `apps/worker` at its health port's.
 */
import { type AttemptResult, deliveryEventTimeMillis, type PendingAttempt } from "@wasl/core/Deliveries"
import { type WhatsAppDrainResult, type WhatsAppWebhookSummary } from "@wasl/core/WhatsApp"
import { DateTime, Effect, Metric } from "effect"

/** Recorded attempts by `outcome` (succeeded, retrying, exhausted, cancelled, dropped). */
export const deliveryAttemptsTotal: Metric.Counter<number> = Metric.counter("wasl_delivery_attempts_total", {
  description: "Webhook delivery attempts recorded, by outcome (succeeded, retrying, exhausted, cancelled, dropped).",
  incremental: true
})

/** Seconds from an event to the start of a delivery's first attempt. */
export const firstAttemptLatency: Metric.Histogram<number> = Metric.histogram(
  "wasl_delivery_first_attempt_latency_seconds",
  {
    description:
      "Seconds from an event to the start of the first attempt of a delivery of it (a redelivery asked by hand counts from its original event).",
    // 10 ms to 1 hour: a worker keeping up answers in well under a second; minutes mean a backlog.
    boundaries: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600]
  }
)

/** Counts recorded attempts by result, and times the first attempts among them. */
export const recordAttemptMetrics = (
  batch: ReadonlyArray<PendingAttempt>,
  results: ReadonlyArray<AttemptResult>
): Effect.Effect<void> =>
  Effect.forEach(batch, (pending, i) => {
    const result = results[i] ?? "Dropped"
    const counted = Metric.update(Metric.withAttributes(deliveryAttemptsTotal, { outcome: result.toLowerCase() }), 1)
    const attempt = pending.record.attempt
    const eventAt = deliveryEventTimeMillis(pending.delivery.body)
    if (pending.delivery.state.attempts !== 0 || attempt === null || eventAt === undefined) return counted
    const startedAt = DateTime.toEpochMillis(pending.finishedAt) - attempt.durationMillis
    return Effect.andThen(counted, Metric.update(firstAttemptLatency, Math.max(0, startedAt - eventAt) / 1000))
  }, { discard: true })

/** Stored WhatsApp callbacks the worker handled, by `outcome` (processed, retrying, dropped). */
export const whatsAppCallbacksProcessedTotal: Metric.Counter<number> = Metric.counter("wasl_whatsapp_callbacks_processed_total", {
  description:
    "Stored WhatsApp callbacks handled by the worker, by outcome: processed, retrying (the processing failed; tried again after a backoff), dropped (failed at every attempt).",
  incremental: true
})

/** Counts one round of the WhatsApp inbox by outcome. */
export const recordWhatsAppDrainMetrics = (result: WhatsAppDrainResult): Effect.Effect<void> =>
  Effect.forEach(
    [["processed", result.processed], ["retrying", result.retrying], ["dropped", result.dropped]] as const,
    ([outcome, count]) =>
      count === 0 ? Effect.void : Metric.update(Metric.withAttributes(whatsAppCallbacksProcessedTotal, { outcome }), count),
    { discard: true }
  )

/** What the processing of stored WhatsApp callbacks found in them, by `kind`. */
export const whatsAppCallbackItemsTotal: Metric.Counter<number> = Metric.counter("wasl_whatsapp_callback_items_total", {
  description:
    "What the worker's processing of stored WhatsApp callbacks found, by kind: message, status (of the accounts' numbers), unknown_number (a change about a number no account has: dropped), template (a review change of an account's template), unknown_template (a review change of a template no account has: dropped), ignored (not Meta's shape, or a field, status or event Wasl does not take).",
  incremental: true
})

/** Counts what one processed callback held. */
export const recordWhatsAppWebhookSummary = (summary: WhatsAppWebhookSummary): Effect.Effect<void> =>
  Effect.forEach(
    [
      ["message", summary.messages],
      ["status", summary.statuses],
      ["unknown_number", summary.unknownNumbers],
      ["template", summary.templates],
      ["unknown_template", summary.unknownTemplates],
      ["ignored", summary.ignored]
    ] as const,
    ([kind, count]) =>
      count === 0 ? Effect.void : Metric.update(Metric.withAttributes(whatsAppCallbackItemsTotal, { kind }), count),
    { discard: true }
  )
