import { Context, type Fiber, Tracer } from "effect"

/**
 * The span a log line or an error answer can name: the fiber's current span when a tracer that
 * exports spans is installed and the span is sampled. Under Effect's native tracer (tracing off),
 * or where tracing is disabled, spans still have ids, but no trace is recorded anywhere, so
 * naming them would send an operator looking for nothing.
 */
export const exportedSpan = (fiber: Fiber.Fiber<unknown, unknown>): Tracer.AnySpan | undefined => {
  if (fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer) return undefined
  const span = Context.getOrUndefined(fiber.context, Tracer.ParentSpan)
  return span?.sampled === true ? span : undefined
}
