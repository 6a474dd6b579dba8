/** The operational settings: the metrics token (none by default, never shown) and the worker's health port (off by default). */
import { ConfigProvider, Effect, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { describeConfigError, HttpConfig, MetricsTokenConfig, WorkerHealthConfig } from "../src/config.ts"
import { EffectiveSettings, REDACTED } from "../src/settings.ts"

const provider = (env: Record<string, string>) => ConfigProvider.fromEnvRecord(env)

describe("operations configuration", () => {
  it("leaves the metrics open by default, and keeps WASL_METRICS_TOKEN redacted", () => {
    expect(Effect.runSync(MetricsTokenConfig.parse(provider({})))).toBeUndefined()
    const token = Effect.runSync(HttpConfig.parse(provider({ WASL_METRICS_TOKEN: "scrape-me" }))).metricsToken
    expect(token === undefined ? undefined : Redacted.value(token)).toBe("scrape-me")
    expect(String(token)).not.toContain("scrape-me")
    expect(Effect.runSync(EffectiveSettings.parse(provider({ WASL_METRICS_TOKEN: "scrape-me" })))["WASL_METRICS_TOKEN"]).toBe(REDACTED)
  })

  it("gives the worker no port by default; reads WASL_WORKER_HEALTH_PORT on HOST, and refuses a bad port naming it", () => {
    expect(Effect.runSync(WorkerHealthConfig.parse(provider({})))).toEqual({ port: undefined, host: "0.0.0.0" })
    expect(Effect.runSync(WorkerHealthConfig.parse(provider({ WASL_WORKER_HEALTH_PORT: "9464", HOST: "127.0.0.1" }))))
      .toEqual({ port: 9464, host: "127.0.0.1" })
    const refusal = Effect.runSync(
      WorkerHealthConfig.parse(provider({ WASL_WORKER_HEALTH_PORT: "99999" })).pipe(Effect.flip, Effect.map(describeConfigError))
    )
    expect(refusal).toBe(`WASL_WORKER_HEALTH_PORT: expected a port number from 0 to 65535, received "99999"`)
  })
})
