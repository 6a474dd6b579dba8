/** A tracer for the contract suites' trace-context cases. */
import { Tracer } from "effect"

/**
 * A tracer that is not Effect's native one — so its sampled spans count as exported, as an OTLP
 * exporter's do (core events/trace-parent.ts) — and keeps every span it makes, for a test to find.
 * Provide it with `Effect.withTracer(recording.tracer)`.
 */
export const makeRecordingTracer = (): { readonly tracer: Tracer.Tracer; readonly spans: ReadonlyArray<Tracer.Span> } => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  return { tracer, spans }
}
