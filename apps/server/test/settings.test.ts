/**
 * The list of settings is complete and true: every variable the apps read is on it, its defaults
 * are the ones in effect, and `EffectiveSettings` shows values and defaults with secrets redacted.
 */
import { Config, ConfigProvider, Duration, Effect, Option, Result } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { DEFAULT_DELIVERY_TIMEOUT, DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from "@wasl/core/Deliveries"
import { parseDurationText } from "@wasl/core/Deployment"
import { DEFAULT_OTP_COOLDOWN, DEFAULT_SEND_RATE } from "@wasl/core/Messaging"
import { DEFAULT_RETENTION } from "@wasl/core/Retention"
import { HttpConfig, WaslConfig, WorkerHealthConfig } from "../src/config.ts"
import { LoggingConfig } from "../src/logging.ts"
import { EffectiveSettings, SETTINGS } from "../src/settings.ts"
import { TracingConfig } from "../src/tracing.ts"

const everything = Config.all([WaslConfig, HttpConfig, LoggingConfig, WorkerHealthConfig, TracingConfig])
const defaultOf = (name: string) => SETTINGS.find((s) => s.name === name)!.default!
const effective = (env: Record<string, string>) => Effect.runSync(EffectiveSettings.parse(ConfigProvider.fromEnvRecord(env)))
const millis = (text: string) => Duration.toMillis(Option.getOrThrow(parseDurationText(text)))

describe("the list of settings", () => {
  it("names every variable the apps read, and no other", () => {
    const read = new Set<string>()
    const recording = ConfigProvider.fromEnvRecord({}).pipe(ConfigProvider.mapInput((path) => {
      read.add(path.join("."))
      return path
    }))
    Effect.runSync(everything.parse(recording))
    expect([...read].sort()).toEqual(SETTINGS.map((s) => s.name).sort())
  })

  it("gives the defaults in effect", () => {
    const unset = Effect.runSync(everything.parse(ConfigProvider.fromEnvRecord({})))
    // The apps apply these.
    for (
      const name of [
        "PORT",
        "HOST",
        "WASL_REQUEST_TIMEOUT",
        "WASL_DATA_DIR",
        "WASL_WEBHOOK_ALLOW_PRIVATE",
        "WASL_RATE_LIMIT",
        "WASL_RATE_LIMIT_LOGIN",
        "WASL_RATE_LIMIT_OTP_VERIFY",
        "WASL_STREAMS_PER_USER",
        "WASL_LOG_LEVEL",
        "OTEL_EXPORTER_OTLP_PROTOCOL",
        "OTEL_SERVICE_NAME"
      ]
    ) {
      const given = Effect.runSync(everything.parse(ConfigProvider.fromEnvRecord({ [name]: defaultOf(name) })))
      expect(given, name).toEqual(unset)
    }
    // The library applies the others.
    expect(millis(defaultOf("WASL_DELIVERY_TIMEOUT"))).toBe(Duration.toMillis(DEFAULT_DELIVERY_TIMEOUT))
    expect(millis(defaultOf("WASL_OTP_COOLDOWN"))).toBe(Duration.toMillis(DEFAULT_OTP_COOLDOWN))
    expect(Number(defaultOf("WASL_WHATSAPP_SEND_RATE"))).toBe(DEFAULT_SEND_RATE)
    expect(millis(defaultOf("WASL_RETENTION_DELIVERIES"))).toBe(Duration.toMillis(DEFAULT_RETENTION.deliveries))
    expect(millis(defaultOf("WASL_RETENTION_NOTIFICATIONS"))).toBe(Duration.toMillis(DEFAULT_RETENTION.notifications))
    expect(millis(defaultOf("WASL_RETENTION_VERIFICATIONS"))).toBe(Duration.toMillis(DEFAULT_RETENTION.verifications))
    expect(millis(defaultOf("WASL_RETENTION_IDEMPOTENCY"))).toBe(Duration.toMillis(DEFAULT_RETENTION.idempotency))
    expect(millis(defaultOf("WASL_RETENTION_EXPORTS"))).toBe(Duration.toMillis(DEFAULT_RETENTION.exports))
    expect(millis(defaultOf("WASL_RETENTION_IMPORTS"))).toBe(Duration.toMillis(DEFAULT_RETENTION.imports))
    expect(millis(defaultOf("WASL_RETENTION_RESERVATIONS"))).toBe(Duration.toMillis(DEFAULT_RETENTION.reservations))
    expect(millis(defaultOf("WASL_RETENTION_STATUS_HOLDS"))).toBe(Duration.toMillis(DEFAULT_RETENTION.statusHolds))
    expect(millis(defaultOf("WASL_RETENTION_INVITATIONS"))).toBe(Duration.toMillis(DEFAULT_RETENTION.invitations))
    expect(millis(defaultOf("WASL_RETENTION_HISTORY"))).toBe(Duration.toMillis(DEFAULT_RETENTION.history))
    expect(Result.getOrThrow(parseRetrySchedule(defaultOf("WASL_RETRY_DELAYS"))).map(Duration.toMillis)).toEqual(
      DEFAULT_RETRY_SCHEDULE.map(Duration.toMillis)
    )
  })
})

describe("the README", () => {
  it("documents every setting with its default and its accepted form", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
    for (const setting of SETTINGS) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${setting.name}\` |`))
      expect(row, `no README row for ${setting.name}`).toBeDefined()
      const [, documented, accepted, meaning] = row!.split(/ \| /).map((cell) => cell.replaceAll("`", "").trim())
      expect(documented, setting.name).toBe(setting.default ?? "unset")
      expect(accepted, setting.name).not.toBe("")
      expect(meaning, setting.name).not.toBe("")
    }
  })
})

describe("EffectiveSettings", () => {
  it("shows the defaults, the data directory filled in, null for an unset setting without one", () => {
    const settings = effective({ WASL_DATA_DIR: "/srv/wasl" })
    expect(settings.PORT).toBe("3000")
    expect(settings.WASL_DATA_DIR).toBe("/srv/wasl")
    expect(settings.WASL_MAIL_OUTBOX).toBe("/srv/wasl/mail-outbox.jsonl")
    expect(settings.DATABASE_URL).toBeNull()
    expect(settings.WASL_SECRET_KEY).toBeNull()
    expect(Object.keys(settings)).toEqual(SETTINGS.map((s) => s.name))
  })

  it("shows the values given, secrets redacted", () => {
    const settings = effective({
      WASL_OTP_COOLDOWN: "2s",
      DATABASE_URL: "postgres://wasl:hunter2@db.example:5432/wasl?sslmode=require",
      WASL_DATABASE_READ_URL: "postgres://wasl:hunter2@r1.example/wasl, postgres://wasl:hunter2@r2.example/wasl",
      WASL_SECRET_KEY: "ab".repeat(32),
      WASL_SMTP_URL: "smtps://mailer:hunter2@mail.example:465",
      OTEL_EXPORTER_OTLP_HEADERS: "api-key=hunter2"
    })
    expect(settings.WASL_OTP_COOLDOWN).toBe("2s")
    expect(settings.DATABASE_URL).toBe("postgres://wasl:***@db.example:5432/wasl?sslmode=require")
    expect(settings.WASL_SMTP_URL).toBe("smtps://mailer:***@mail.example:465")
    expect(settings.WASL_DATABASE_READ_URL).toBe("postgres://wasl:***@r1.example/wasl,postgres://wasl:***@r2.example/wasl")
    expect(settings.WASL_SECRET_KEY).toBe("***")
    expect(settings.OTEL_EXPORTER_OTLP_HEADERS).toBe("***")
    expect(JSON.stringify(settings)).not.toMatch(/hunter2|abab/)
    expect(effective({ DATABASE_URL: "postgres://db.example/wasl?password=hunter2" }).DATABASE_URL).toBe(
      "postgres://db.example/wasl?password=***"
    )
  })

  it("refuses what the apps refuse", () => {
    expect(Effect.runSyncExit(EffectiveSettings.parse(ConfigProvider.fromEnvRecord({ WASL_OTP_COOLDOWN: "soon" }))))
      .toMatchObject({ _tag: "Failure" })
  })
})
