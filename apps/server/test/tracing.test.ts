/**
 * The OpenTelemetry settings: tracing off unless an endpoint is set, the traces URL derived the
 * standard way, protocol and headers checked up front, the headers never repeated in a refusal;
 * off means the tracer is given no span (Effect makes a no-op one instead).
 */
import { type Config, ConfigProvider, Effect, Redacted, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { describeConfigError } from "../src/config.ts"
import { TracingConfig, tracingLayer } from "../src/tracing.ts"

const read = (env: Record<string, string>) => Effect.runSync(TracingConfig.parse(ConfigProvider.fromEnvRecord(env)))
const refusal = (env: Record<string, string>) =>
  describeConfigError(Effect.runSync(Effect.flip(TracingConfig.parse(ConfigProvider.fromEnvRecord(env)))) as Config.ConfigError)

describe("the tracing settings", () => {
  it("leave tracing off when no endpoint is set (or it is blank)", () => {
    expect(read({}).url).toBeUndefined()
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: " ", OTEL_SERVICE_NAME: "api" }).url).toBeUndefined()
  })

  it("turn the tracer off without an endpoint: it is given no span (none would be exported)", () => {
    const built: Array<string> = []
    const counting = Tracer.make({
      span(options) {
        built.push(options.name)
        return Tracer.nativeTracer.span(options)
      }
    })
    const useCase = Effect.void.pipe(Effect.withSpan("createRecord"), Effect.withTracer(counting))
    Effect.runSync(useCase.pipe(Effect.provide(tracingLayer(read({})))))
    expect(built).toEqual([])
    // The same span with tracing left on, as under an exporter.
    Effect.runSync(useCase)
    expect(built).toEqual(["createRecord"])
  })

  it("send traces to /v1/traces below OTEL_EXPORTER_OTLP_ENDPOINT, or to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given", () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).url).toBe("http://collector:4318/v1/traces")
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example/api/" }).url).toBe("https://otlp.example/api/v1/traces")
    expect(read({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://traces:4318/custom"
    }).url).toBe("http://traces:4318/custom")
  })

  it("default to protobuf and the service name wasl", () => {
    const config = read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })
    expect(config.protocol).toBe("http/protobuf")
    expect(config.serviceName).toBe("wasl")
    expect(config.headers).toBeUndefined()
    expect(read({ OTEL_EXPORTER_OTLP_PROTOCOL: "HTTP/JSON", OTEL_SERVICE_NAME: " wasl-worker " })).toMatchObject({
      protocol: "http/json",
      serviceName: "wasl-worker"
    })
  })

  it("read the headers as percent-encoded key=value pairs, kept redacted", () => {
    const headers = read({ OTEL_EXPORTER_OTLP_HEADERS: "api-key=abc%20def, x-tenant = 7,," }).headers!
    expect(String(headers)).not.toContain("abc")
    expect(Redacted.value(headers)).toEqual({ "api-key": "abc def", "x-tenant": "7" })
  })

  it("refuse a bad value in one line naming the setting, without repeating the headers", () => {
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toBe(
      "OTEL_EXPORTER_OTLP_ENDPOINT: expected an http(s) URL such as http://localhost:4318"
    )
    expect(refusal({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "grpc://collector:4317" })).toMatch(/^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: /)
    expect(refusal({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toBe(
      `OTEL_EXPORTER_OTLP_PROTOCOL: expected http/protobuf or http/json (gRPC is not supported), received "grpc"`
    )
    for (const bad of ["api-key", "api key=secret1", "api-key=%zz-secret1"]) {
      const line = refusal({ OTEL_EXPORTER_OTLP_HEADERS: bad })
      expect(line).toBe(
        "OTEL_EXPORTER_OTLP_HEADERS: expected comma-separated key=value pairs, values percent-encoded (api-key=abc%20def)"
      )
      expect(line).not.toContain("secret1")
    }
  })
})
