/**
 * The list of every environment variable the apps read, with its default as the README gives it
 * and whether it holds a secret: what `wasl config` prints, and what the tests hold the README
 * and the configuration readers to (every variable read is listed, every listed one documented).
 */
import { Config, Option } from "effect"
import { HttpConfig, WaslConfig, WorkerHealthConfig } from "./config.ts"
import { LoggingConfig } from "./logging.ts"
import { TracingConfig } from "./tracing.ts"

export interface Setting {
  readonly name: string
  /** The default as documented; `<WASL_DATA_DIR>` stands for the data directory. Undefined: unset. */
  readonly default?: string
  /** `value`: never shown; `url`: shown without the URL's password; `urls`: each of a comma-separated list so. */
  readonly secret?: "value" | "url" | "urls"
}

export const SETTINGS: ReadonlyArray<Setting> = [
  { name: "PORT", default: "3000" },
  { name: "HOST", default: "0.0.0.0" },
  { name: "WASL_REQUEST_TIMEOUT", default: "30s" },
  { name: "DATABASE_URL", secret: "url" },
  { name: "WASL_DATABASE_READ_URL", secret: "urls" },
  { name: "WASL_DATABASE_LISTEN_URL", secret: "url" },
  { name: "WASL_DATA_DIR", default: "./.wasl-data" },
  { name: "WASL_DATABASE_POOL", default: "10" },
  { name: "WASL_SECRET_KEY", secret: "value" },
  { name: "WASL_PUBLIC_URL" },
  { name: "WASL_LOG_FORMAT", default: "pretty on a terminal, json otherwise" },
  { name: "WASL_LOG_LEVEL", default: "info" },
  { name: "WASL_WEBHOOK_ALLOW_PRIVATE", default: "false" },
  { name: "WASL_WEBHOOK_CA_FILE" },
  { name: "WASL_RETRY_DELAYS", default: "0s,5m,30m,1h,3h,1d" },
  { name: "WASL_DELIVERY_TIMEOUT", default: "30s" },
  { name: "WASL_SMTP_URL", secret: "url" },
  { name: "WASL_SMTP_CA_FILE" },
  { name: "WASL_MAIL_FROM", default: "wasl@localhost" },
  { name: "WASL_MAIL_OUTBOX", default: "<WASL_DATA_DIR>/mail-outbox.jsonl" },
  { name: "WASL_OTP_COOLDOWN", default: "60s" },
  { name: "WASL_SANDBOX_OUTBOX", default: "<WASL_DATA_DIR>/sandbox-outbox.jsonl" },
  { name: "WASL_WHATSAPP_GRAPH_URL", default: "https://graph.facebook.com/v21.0" },
  { name: "WASL_WHATSAPP_APP_SECRET", secret: "value" },
  { name: "WASL_WHATSAPP_VERIFY_TOKEN", secret: "value" },
  { name: "WASL_MEDIA_DIR", default: "<WASL_DATA_DIR>/media" },
  { name: "WASL_MEDIA_MAX_BYTES", default: "16777216" },
  { name: "WASL_WHATSAPP_SEND_RATE", default: "80" },
  { name: "WASL_RETENTION_DELIVERIES", default: "30d" },
  { name: "WASL_RETENTION_NOTIFICATIONS", default: "90d" },
  { name: "WASL_RETENTION_VERIFICATIONS", default: "30d" },
  { name: "WASL_RETENTION_IDEMPOTENCY", default: "0s" },
  { name: "WASL_RETENTION_EXPORTS", default: "7d" },
  { name: "WASL_RETENTION_IMPORTS", default: "30d" },
  { name: "WASL_RETENTION_RESERVATIONS", default: "30d" },
  { name: "WASL_RETENTION_STATUS_HOLDS", default: "7d" },
  { name: "WASL_RETENTION_INVITATIONS", default: "30d" },
  { name: "WASL_RETENTION_TRASH", default: "30d" },
  { name: "WASL_RETENTION_HISTORY", default: "365d" },
  { name: "WASL_RATE_LIMIT", default: "600/1 minute" },
  { name: "WASL_RATE_LIMIT_LOGIN", default: "10/1 minute" },
  { name: "WASL_RATE_LIMIT_OTP_VERIFY", default: "120/1 minute" },
  { name: "WASL_TRUST_PROXY" },
  { name: "WASL_STREAMS_PER_USER", default: "10" },
  { name: "WASL_METRICS_TOKEN", secret: "value" },
  { name: "WASL_WORKER_HEALTH_PORT" },
  { name: "OTEL_EXPORTER_OTLP_ENDPOINT" },
  { name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" },
  { name: "OTEL_EXPORTER_OTLP_PROTOCOL", default: "http/protobuf" },
  { name: "OTEL_EXPORTER_OTLP_HEADERS", secret: "value" },
  { name: "OTEL_SERVICE_NAME", default: "wasl" }
]

/** What `wasl config` shows of a secret. */
export const REDACTED = "***"

/** A URL without its password (in the user part or a `password` parameter). */
const withoutPassword = (text: string): string => {
  const url = URL.parse(text)
  if (url === null) return REDACTED
  if (url.password !== "") url.password = REDACTED
  if (url.searchParams.has("password")) url.searchParams.set("password", REDACTED)
  return url.toString()
}

const shown = (setting: Setting, value: string): string => {
  switch (setting.secret) {
    case "value":
      return REDACTED
    case "url":
      return withoutPassword(value)
    case "urls":
      return value.split(",").map((url) => withoutPassword(url.trim())).join(",")
    default:
      return value
  }
}

/**
 * Every setting as it is in effect: its value (secrets redacted), else its default, else null.
 * Fails like the apps do on a value they would refuse.
 */
export const EffectiveSettings: Config.Config<Record<string, string | null>> = Config.all({
  valid: Config.all([WaslConfig, HttpConfig, LoggingConfig, WorkerHealthConfig, TracingConfig]),
  values: Config.all(SETTINGS.map((setting) => Config.option(Config.String(setting.name))))
}).pipe(Config.map(({ valid: [wasl], values }) =>
  Object.fromEntries(SETTINGS.map((setting, i) => {
    const given = Option.filter(values[i]!, (text) => text.trim() !== "")
    const value = Option.match(given, {
      onSome: (text) => shown(setting, text.trim()),
      onNone: () => setting.default?.replaceAll("<WASL_DATA_DIR>", wasl.dataDir ?? "") ?? null
    })
    return [setting.name, value]
  }))
))
