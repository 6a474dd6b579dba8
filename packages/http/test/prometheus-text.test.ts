/**
 * The Prometheus text `GET /metrics` writes is Effect's exporter's, byte for byte, for every kind
 * of metric (counters, bigint counters, gauges, histograms, summaries, frequencies), with and
 * without labels, with label values to escape, names to sanitise and unit attributes to leave out;
 * and it stays so once the texts of the lines are kept from an earlier scrape, registry by registry.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { prometheusText } from "../src/prometheus-text.ts"

const record = Effect.gen(function*() {
  const requests = Metric.counter("app_requests_total", { description: "Requests.\nBy route.", incremental: true })
  yield* Metric.update(Metric.withAttributes(requests, { method: "GET", route: "/api/:kind/:id", status: "200" }), 3)
  yield* Metric.update(Metric.withAttributes(requests, { method: "other", route: 'quote"back\\slash\nnewline', status: "404" }), 1)
  yield* Metric.update(Metric.counter("bytes-sent.total", { bigint: true }), BigInt(2) ** BigInt(70))
  yield* Metric.update(Metric.gauge("9queue:depth__", { description: "A back\\slash." }), 7.5)
  yield* Metric.update(Metric.gauge("temperature", { attributes: { unit: "celsius", "room-id": "1" } }), -Infinity)
  const duration = Metric.histogram("app_duration_seconds", { boundaries: [0.005, 0.01, 0.5, 10] })
  for (const seconds of [0.001, 0.2, 3, 30]) {
    yield* Metric.update(Metric.withAttributes(duration, { route: "/health/live" }), seconds)
    yield* Metric.update(duration, seconds / 10)
  }
  const sizes = Metric.summary("app_sizes", { maxAge: Duration.minutes(1), maxSize: 100, quantiles: [0.5, 0.99] })
  for (const size of [1, 2, 3, 400]) yield* Metric.update(Metric.withAttributes(sizes, { kind: "upload" }), size)
  const empty = Metric.summary("app_empty", { maxAge: Duration.minutes(1), maxSize: 100, quantiles: [0.5] })
  yield* Metric.value(empty)
  const outcomes = Metric.frequency("app_outcomes", { attributes: { source: "worker" } })
  for (const outcome of ["sent", "sent", 'fai"led']) yield* Metric.update(outcomes, outcome)
})

describe("Prometheus text", () => {
  it.effect("is what Effect's exporter writes, for every kind of metric, scrape after scrape", () =>
    Effect.gen(function*() {
      yield* record
      const first = yield* prometheusText
      expect(first).toBe(yield* PrometheusMetrics.format())
      expect(first).toContain('route="quote\\"back\\\\slash\\nnewline"')
      yield* record
      expect(yield* prometheusText).toBe(yield* PrometheusMetrics.format())
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map())))

  it.effect("keeps each registry's series apart, whatever their names", () =>
    Effect.gen(function*() {
      for (const boundaries of [[1, 2], [5]]) {
        const text = yield* Effect.gen(function*() {
          yield* Metric.update(Metric.histogram("app_latency", { boundaries }), 1.5)
          yield* Metric.update(Metric.histogram("app_latency", { boundaries, attributes: { a: "1" } }), 1.5)
          const ours = yield* prometheusText
          expect(ours).toBe(yield* PrometheusMetrics.format())
          return ours
        }).pipe(Effect.provideService(Metric.MetricRegistry, new Map()))
        expect(text).toContain(`app_latency_bucket{le="${boundaries[0]}"}`)
      }
    }))

  it.effect("is empty for an empty registry", () =>
    Effect.gen(function*() {
      expect(yield* prometheusText).toBe("")
      expect(yield* PrometheusMetrics.format()).toBe("")
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map())))
})
