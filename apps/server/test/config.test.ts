/**
 * The settings read at the edge: one duration syntax for every duration setting, and a bad value
 * refused in one line naming the setting and the accepted form (a secret never repeated).
 */
import { type Config, ConfigProvider, Duration, Effect, Redacted } from "effect"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { describeConfigError, HttpConfig, WaslConfig } from "../src/config.ts"

const provider = (env: Record<string, string>) => ConfigProvider.fromEnvRecord(env)
const read = (env: Record<string, string>) => Effect.runSync(WaslConfig.parse(provider(env)))
const refusal = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  describeConfigError(Effect.runSync(Effect.flip(config.parse(provider(env)))))

const DURATION_SETTINGS = [
  "WASL_DELIVERY_TIMEOUT",
  "WASL_OTP_COOLDOWN",
  "WASL_RETENTION_DELIVERIES",
  "WASL_RETENTION_NOTIFICATIONS",
  "WASL_RETENTION_VERIFICATIONS",
  "WASL_RETENTION_IDEMPOTENCY",
  "WASL_RETENTION_EXPORTS",
  "WASL_RETENTION_IMPORTS",
  "WASL_RETENTION_RESERVATIONS",
  "WASL_RETENTION_STATUS_HOLDS",
  "WASL_RETENTION_INVITATIONS",
  "WASL_RETENTION_HISTORY"
] as const

/** The duration each setting ends up as. */
const durations = (config: WaslConfig) => ({
  WASL_DELIVERY_TIMEOUT: config.webhooks?.timeout,
  WASL_OTP_COOLDOWN: config.messaging?.otpCooldown,
  WASL_RETENTION_DELIVERIES: config.retention?.deliveries,
  WASL_RETENTION_NOTIFICATIONS: config.retention?.notifications,
  WASL_RETENTION_VERIFICATIONS: config.retention?.verifications,
  WASL_RETENTION_IDEMPOTENCY: config.retention?.idempotency,
  WASL_RETENTION_EXPORTS: config.retention?.exports,
  WASL_RETENTION_IMPORTS: config.retention?.imports,
  WASL_RETENTION_RESERVATIONS: config.retention?.reservations,
  WASL_RETENTION_STATUS_HOLDS: config.retention?.statusHolds,
  WASL_RETENTION_INVITATIONS: config.retention?.invitations,
  WASL_RETENTION_HISTORY: config.retention?.history
})

describe("the settings", () => {
  it("read every duration setting in both forms: 2s and 60 seconds", () => {
    for (const [text, millis] of [["500ms", 500], ["2s", 2000], ["5m", 300_000], ["1h", 3_600_000], ["1d", 86_400_000], [
      "60 seconds",
      60_000
    ]] as const) {
      const env = Object.fromEntries(DURATION_SETTINGS.map((name) => [name, text]))
      const read_ = durations(read(env))
      for (const name of DURATION_SETTINGS) {
        const value = read_[name]
        expect(Duration.isDuration(value) && Duration.toMillis(value), `${name}=${text}`).toBe(millis)
      }
    }
    const schedule = read({ WASL_RETRY_DELAYS: "0s,500ms,2 seconds,5m,1h,1d" }).webhooks?.retryDelays
    expect(Array.isArray(schedule) && schedule.map(Duration.toMillis)).toEqual([0, 500, 2000, 300_000, 3_600_000, 86_400_000])
  })

  it("leave unset and blank settings to the library's defaults", () => {
    const config = read({ WASL_OTP_COOLDOWN: "" })
    expect(durations(config)).toEqual(Object.fromEntries(DURATION_SETTINGS.map((name) => [name, undefined])))
    expect(config.databaseUrl).toBeUndefined()
    expect(config.dataDir).toBe("./.wasl-data")
  })

  it("refuse a bad duration in one line naming the setting and the accepted form", () => {
    for (const name of DURATION_SETTINGS) {
      expect(refusal(WaslConfig, { [name]: "soon" })).toBe(
        `${name}: expected a duration such as 500ms, 2s, 5m, 1h, 1d or 60 seconds, received "soon"`
      )
    }
    expect(refusal(WaslConfig, { WASL_RETRY_DELAYS: "0s,5m" })).toMatch(/^WASL_RETRY_DELAYS: expected 6 comma-separated durations/)
  })

  it("read the database pool's size, 1 to 1000 connections", () => {
    expect(read({ WASL_DATABASE_POOL: "25" }).maxConnections).toBe(25)
    expect(read({ WASL_DATABASE_POOL: " 1000 " }).maxConnections).toBe(1000)
    expect(read({}).maxConnections).toBeUndefined()
    for (const value of ["0", "1001", "ten", "2.5", "-3"]) {
      expect(refusal(WaslConfig, { WASL_DATABASE_POOL: value })).toBe(
        `WASL_DATABASE_POOL: expected a number of connections from 1 to 1000, received "${value}"`
      )
    }
  })

  it("read the read replicas' URLs, comma-separated, and refuse anything but PostgreSQL URLs", () => {
    expect(read({}).readUrls).toEqual([])
    expect(read({ WASL_DATABASE_READ_URL: " postgres://r1/wasl , postgresql://u:p@r2:5433/wasl" }).readUrls).toEqual([
      "postgres://r1/wasl",
      "postgresql://u:p@r2:5433/wasl"
    ])
    for (const value of ["mysql://r1/wasl", "postgres://r1/wasl,replica", ","]) {
      expect(refusal(WaslConfig, { WASL_DATABASE_READ_URL: value })).toBe(
        `WASL_DATABASE_READ_URL: expected PostgreSQL URLs separated by commas, such as postgres://user:password@replica:5432/database`
      )
    }
  })

  it("refuse a bad port, flag or URL the same way", () => {
    expect(refusal(HttpConfig, { PORT: "http" })).toBe(`PORT: expected a port number from 0 to 65535, received "http"`)
    expect(refusal(HttpConfig, { PORT: "70000" })).toMatch(/^PORT: /)
    expect(refusal(WaslConfig, { WASL_WEBHOOK_ALLOW_PRIVATE: "maybe" })).toBe(
      `WASL_WEBHOOK_ALLOW_PRIVATE: expected true or false, received "maybe"`
    )
    expect(refusal(WaslConfig, { WASL_WHATSAPP_GRAPH_URL: "graph" })).toMatch(/^WASL_WHATSAPP_GRAPH_URL: expected an http\(s\) URL/)
  })

  it("read the public URL, its path prefix kept and its trailing slash dropped; refuse any but an absolute http(s) URL", () => {
    expect(read({}).publicUrl).toBeUndefined()
    expect(read({ WASL_PUBLIC_URL: " https://CRM.example.com/ " }).publicUrl).toBe("https://crm.example.com")
    expect(read({ WASL_PUBLIC_URL: "http://example.com:8080/crm/" }).publicUrl).toBe("http://example.com:8080/crm")
    for (const value of ["crm.example.com", "/crm", "ftp://crm.example.com", "https://crm.example.com/?a=1", "https://crm.example.com/#top", "https://wasl:hunter2@crm.example.com"]) {
      expect(refusal(WaslConfig, { WASL_PUBLIC_URL: value }), value).toBe(
        "WASL_PUBLIC_URL: expected an absolute http(s) URL without query or fragment, such as https://crm.example.com"
      )
    }
  })

  it("read the time a request's body may take to arrive, 30 seconds by default; refuse one under a second or over a day", () => {
    const timeout = (env: Record<string, string>) => Duration.toMillis(Effect.runSync(HttpConfig.parse(provider(env))).requestTimeout)
    expect(timeout({})).toBe(30_000)
    expect(timeout({ WASL_REQUEST_TIMEOUT: "2s" })).toBe(2000)
    expect(timeout({ WASL_REQUEST_TIMEOUT: "2 minutes" })).toBe(120_000)
    for (const value of ["soon", "0s", "500ms", "2d"]) {
      expect(refusal(HttpConfig, { WASL_REQUEST_TIMEOUT: value }), value).toBe(
        `WASL_REQUEST_TIMEOUT: expected a duration from 1s to 1d, such as 30s, received "${value}"`
      )
    }
  })

  it("refuse a CA file that cannot be read or holds no certificate, before anything uses it", () => {
    const ca = fileURLToPath(new URL("../../../test/fixtures/tls/ca.pem", import.meta.url))
    const notPem = fileURLToPath(import.meta.url)
    for (const name of ["WASL_WEBHOOK_CA_FILE", "WASL_SMTP_CA_FILE"]) {
      expect(refusal(WaslConfig, { [name]: "/nowhere/ca.pem" })).toBe(
        `${name}: expected a readable PEM file of CA certificates, received "/nowhere/ca.pem"`
      )
      expect(refusal(WaslConfig, { [name]: notPem })).toBe(
        `${name}: expected a readable PEM file of CA certificates, received "${notPem}"`
      )
    }
    const config = read({ WASL_WEBHOOK_CA_FILE: ca, WASL_SMTP_CA_FILE: ca })
    expect([config.webhooks?.caFile, config.mail?.smtpCaFile]).toEqual([ca, ca])
  })

  it("never repeat a secret when refusing it", () => {
    const secrets = {
      DATABASE_URL: "mysql://wasl:hunter2@db/wasl",
      WASL_SMTP_URL: "http://wasl:hunter2@mail",
      WASL_SECRET_KEY: "hunter2"
    }
    for (const [name, value] of Object.entries(secrets)) {
      const line = refusal(WaslConfig, { [name]: value })
      expect(line).toMatch(new RegExp(`^${name}: expected `))
      expect(line).not.toContain("hunter2")
    }
  })

  it("keep the secrets redacted", () => {
    const config = read({
      DATABASE_URL: "postgres://wasl:hunter2@db/wasl",
      WASL_SECRET_KEY: "ab".repeat(32),
      WASL_SMTP_URL: "smtps://wasl:hunter2@mail:465"
    })
    expect(config.databaseUrl).toBe("postgres://wasl:hunter2@db/wasl")
    expect(Redacted.isRedacted(config.secretKey)).toBe(true)
    expect(Redacted.isRedacted(config.mail?.smtpUrl)).toBe(true)
  })

  it("turn the WhatsApp receiver on with both of its secrets, off with neither, and refuse one alone", () => {
    const http = (env: Record<string, string>) => Effect.runSync(HttpConfig.parse(provider(env)))
    expect(http({}).whatsappWebhook).toBeUndefined()
    expect(http({ WASL_WHATSAPP_APP_SECRET: " ", WASL_WHATSAPP_VERIFY_TOKEN: "" }).whatsappWebhook).toBeUndefined()
    const on = http({ WASL_WHATSAPP_APP_SECRET: " app-secret ", WASL_WHATSAPP_VERIFY_TOKEN: "verify-token" }).whatsappWebhook
    expect(Redacted.isRedacted(on?.appSecret)).toBe(true)
    expect([Redacted.value(on!.appSecret), Redacted.value(on!.verifyToken)]).toEqual(["app-secret", "verify-token"])
    expect(refusal(HttpConfig, { WASL_WHATSAPP_APP_SECRET: "app-secret" })).toMatch(/^WASL_WHATSAPP_VERIFY_TOKEN: expected it beside/)
    const alone = refusal(HttpConfig, { WASL_WHATSAPP_VERIFY_TOKEN: "verify-token" })
    expect(alone).toMatch(/^WASL_WHATSAPP_APP_SECRET: /)
    expect(alone).not.toContain("verify-token")
  })
})
