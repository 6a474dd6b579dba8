/** Configuration, read once at the edge (ARCHITECTURE rule 9). Every variable is in the README. */
import { Config, Duration, Option } from "effect"

export const DatabaseConfig = Config.all({
  /** A PostgreSQL server; without it the embedded database under `dataDir` is used. */
  databaseUrl: Config.option(Config.Redacted("DATABASE_URL")),
  dataDir: Config.String("WASL_DATA_DIR").pipe(Config.withDefault("./.wasl-data"))
})
export type DatabaseConfig = Config.Success<typeof DatabaseConfig>

export const ServerConfig = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
})

export const isEmbedded = (config: DatabaseConfig) => Option.isNone(config.databaseUrl)

/** Webhook network rules (decisions §6): development and test switches only. */
export const WebhookNetworkConfig = Config.all({
  /** `true` lifts the private/loopback address rule (local receivers in development and tests). */
  allowPrivate: Config.Boolean("WASL_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
  /** A PEM file of extra trusted CAs (a local receiver with its own certificate). */
  caFile: Config.option(Config.String("WASL_WEBHOOK_CA_FILE"))
})
export type WebhookNetworkConfig = Config.Success<typeof WebhookNetworkConfig>

/** Outgoing mail (decisions §8): SMTP when WASL_SMTP_URL is set, else JSON lines in WASL_MAIL_OUTBOX. */
export const MailConfig = Config.all({
  smtpUrl: Config.option(Config.Redacted("WASL_SMTP_URL")),
  from: Config.String("WASL_MAIL_FROM").pipe(Config.withDefault("wasl@localhost")),
  outbox: Config.option(Config.String("WASL_MAIL_OUTBOX")),
  dataDir: Config.String("WASL_DATA_DIR").pipe(Config.withDefault("./.wasl-data"))
})
export type MailConfig = Config.Success<typeof MailConfig>

/** Messaging (decisions §7): the sandbox provider's outbox, the Cloud API base URL, the OTP cooldown. */
export const MessagingConfig = Config.all({
  sandboxOutbox: Config.option(Config.String("WASL_SANDBOX_OUTBOX")),
  graphUrl: Config.option(Config.String("WASL_WHATSAPP_GRAPH_URL")),
  otpCooldown: Config.Duration("WASL_OTP_COOLDOWN").pipe(Config.withDefault(Duration.seconds(60))),
  dataDir: Config.String("WASL_DATA_DIR").pipe(Config.withDefault("./.wasl-data"))
})
export type MessagingConfig = Config.Success<typeof MessagingConfig>

/** Webhook delivery (decisions §6): retry delays and the per-attempt timeout, as text parsed by core. */
export const DeliveryConfig = Config.all({
  /** Six comma-separated durations: the delay before each attempt. */
  retryDelays: Config.String("WASL_RETRY_DELAYS").pipe(Config.withDefault("0s,5m,30m,1h,3h,1d")),
  /** The timeout of one attempt (`30s`, `500ms`, ...). */
  timeout: Config.String("WASL_DELIVERY_TIMEOUT").pipe(Config.withDefault("30s"))
})
export type DeliveryConfig = Config.Success<typeof DeliveryConfig>
