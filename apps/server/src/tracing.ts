/**
 * Traces: with `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) set, the
 * spans Effect makes — a server span per HTTP request, the use-case spans of `Effect.fn`, the SQL
 * spans of `@effect/sql`, the worker's delivery attempt spans — are exported over OTLP/HTTP by
 * Effect's own exporter (`effect/observability`). Unset, tracing is turned off: every span is a
 * no-op (Effect's default tracer would otherwise build and time spans for nobody to read, several
 * per request). The standard OpenTelemetry variables are read here, up front, like every other
 * setting, so a bad one stops the process in one line.
 */
import { Config, Layer, Redacted, References, Result } from "effect"
import { FetchHttpClient, HttpMiddleware, type HttpServerRequest } from "effect/http"
import { type OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import { METRICS_PATH } from "@wasl/http/Metrics"
import { setting, withFallback } from "./config.ts"

const PROTOCOLS = { "http/protobuf": OtlpSerialization.layerProtobuf, "http/json": OtlpSerialization.layerJson } as const
type Protocol = keyof typeof PROTOCOLS

/** An http(s) URL; refused without repeating the text, which may carry credentials. */
const endpointSetting = (name: string) =>
  setting(name, (value) => {
    const url = URL.parse(value.trim())
    return url !== null && (url.protocol === "http:" || url.protocol === "https:")
      ? Result.succeed(url)
      : Result.fail("expected an http(s) URL such as http://localhost:4318")
  })

/**
 * `key=value` pairs separated by commas, values percent-encoded (the OpenTelemetry form). They
 * usually hold an API key, so a refusal does not repeat them.
 */
export const parseOtlpHeaders = (text: string): Result.Result<Record<string, string>, string> => {
  const headers: Record<string, string> = {}
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue
    const eq = entry.indexOf("=")
    const key = eq === -1 ? "" : entry.slice(0, eq).trim()
    let value: string | undefined
    try {
      value = decodeURIComponent(entry.slice(eq + 1).trim())
    } catch {
      value = undefined
    }
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key) || value === undefined) {
      return Result.fail("expected comma-separated key=value pairs, values percent-encoded (api-key=abc%20def)")
    }
    headers[key] = value
  }
  return Result.succeed(headers)
}

/**
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the traces URL as given), else `OTEL_EXPORTER_OTLP_ENDPOINT`
 * with `/v1/traces` appended; `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_EXPORTER_OTLP_HEADERS` and
 * `OTEL_SERVICE_NAME`. `url` is undefined when neither endpoint is set: tracing is off.
 */
export const TracingConfig = Config.all({
  base: endpointSetting("OTEL_EXPORTER_OTLP_ENDPOINT"),
  traces: endpointSetting("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  protocol: withFallback(
    setting("OTEL_EXPORTER_OTLP_PROTOCOL", (text): Result.Result<Protocol, string> => {
      const protocol = Object.keys(PROTOCOLS).find((p): p is Protocol => p === text.trim().toLowerCase())
      return protocol === undefined
        ? Result.fail(`expected http/protobuf or http/json (gRPC is not supported), received "${text}"`)
        : Result.succeed(protocol)
    }),
    "http/protobuf"
  ),
  headers: Config.map(setting("OTEL_EXPORTER_OTLP_HEADERS", parseOtlpHeaders), (h) => h === undefined ? undefined : Redacted.make(h)),
  serviceName: withFallback(setting("OTEL_SERVICE_NAME", (text) => Result.succeed(text.trim())), "wasl")
}).pipe(Config.map(({ base, headers, protocol, serviceName, traces }) => {
  const url = traces ?? (base === undefined ? undefined : new URL(`${base.pathname.replace(/\/$/, "")}/v1/traces`, base))
  return { url: url?.toString(), protocol, headers, serviceName }
}))
export type TracingConfig = Config.Success<typeof TracingConfig>

/** Health probes and metrics scrapes come every few seconds: a trace each would bury the requests. */
const isProbe = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const path = request.url.split("?")[0]!
  return path.startsWith("/health/") || path === METRICS_PATH
}

/**
 * The tracer of the settings: the OTLP exporter when an endpoint is set. Else tracing is turned off
 * (`References.TracerEnabled`), so the spans of requests, use cases and statements are no-ops:
 * with no exporter they would only cost CPU and allocation on every request.
 */
export const tracingLayer = ({ headers, protocol, serviceName, url }: TracingConfig): Layer.Layer<never> | Layer.Layer<OtlpExporter.Flusher> =>
  url === undefined ? Layer.succeed(References.TracerEnabled, false) : OtlpTracer.layer({
    url,
    resource: { serviceName },
    headers: headers === undefined ? undefined : Redacted.value(headers),
    // Spans reach the collector within a second, and a stopping process flushes the rest.
    exportInterval: "1 second"
  }).pipe(
    Layer.provide(PROTOCOLS[protocol]),
    Layer.provide(FetchHttpClient.layer),
    Layer.merge(Layer.succeed(HttpMiddleware.TracerDisabledWhen, isProbe))
  )
