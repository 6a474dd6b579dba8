/**
 * The trace context an outbox event carries to its webhook deliveries: the W3C `traceparent`
 * (`00-<trace id>-<span id>-01`) of the span that appended the event, so that each delivery
 * attempt can be traced as a child of the request that caused it.
 *
 * Only a span somebody will see is worth carrying: one made by a tracer that exports spans, and
 * sampled. Under Effect's native tracer (tracing off) spans still get ids, but no trace is
 * recorded anywhere: nothing is captured then, and the event stores no trace context.
 */
import { Context, Effect, type Fiber, Option, Tracer } from "effect"
import { Headers, HttpTraceContext } from "effect/http"

/**
 * The span a log line, an error answer or an outbox event can name: the fiber's current span when
 * a tracer that exports spans is installed and the span is sampled; else undefined.
 */
export const exportedSpan = (fiber: Fiber.Fiber<unknown, unknown>): Tracer.AnySpan | undefined => {
  if (fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer) return undefined
  const span = Context.getOrUndefined(fiber.context, Tracer.ParentSpan)
  return span?.sampled === true ? span : undefined
}

/**
 * The `traceparent` of the current span when it is exported (see {@link exportedSpan}); else
 * undefined. Such a span is sampled: flags `01`. (Effect's `HttpTraceContext.toHeaders` writes the
 * same text, but for a full `Span` only; the current one may be an external parent.)
 */
export const currentTraceParent: Effect.Effect<string | undefined> = Effect.withFiber((fiber) => {
  const span = exportedSpan(fiber)
  return Effect.succeed(span === undefined ? undefined : `00-${span.traceId.padStart(32, "0")}-${span.spanId}-01`)
})

/**
 * The span a stored `traceparent` names, to parent a span on; none for text that is not a
 * version-00 `traceparent` (a stored value is never trusted to be well formed).
 */
export const traceParentSpan = (traceParent: string): Option.Option<Tracer.ExternalSpan> =>
  HttpTraceContext.w3c(Headers.fromRecordUnsafe({ traceparent: traceParent }))

/**
 * The optional `traceParent` field of an event or delivery: absent, not undefined, when there is
 * none (a NULL column), so a row without trace context reads back as it was written.
 */
export const traceParentField = (
  traceParent: string | null | undefined
): { readonly traceParent?: string } => (traceParent == null ? {} : { traceParent })
