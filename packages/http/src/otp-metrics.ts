/**
 * OTP sends by outcome (`wasl_otp_sends_total`): `sent`, or the refusal the caller got —
 * `payment_required` (no credits), `too_many_requests` (the cooldown), `service_unavailable` (the
 * provider failed), `validation_failed`, `forbidden`, `not_found`. A falling share of `sent`, or
 * a run of `service_unavailable`, is what an operator watches.
 */
import { Effect, Metric } from "effect"

/** OTP sends by `outcome`. */
export const otpSendsTotal: Metric.Counter<number> = Metric.counter("wasl_otp_sends_total", {
  description: "OTP sends, by outcome (sent, or the refusal: payment_required, too_many_requests, service_unavailable, ...).",
  incremental: true
})

/** `PaymentRequired` → `payment_required`. */
const snakeCase = (tag: string) => tag.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase()

/** Counts the outcome of one OTP send: `sent`, or the failure's tag in snake case. */
export const countOtpSend = <A, E extends { readonly _tag: string }, R>(send: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  send.pipe(
    Effect.tap(() => Metric.update(Metric.withAttributes(otpSendsTotal, { outcome: "sent" }), 1)),
    Effect.tapError((error) => Metric.update(Metric.withAttributes(otpSendsTotal, { outcome: snakeCase(error._tag) }), 1))
  )
