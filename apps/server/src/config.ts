/**
 * Configuration, read once at the edge (ARCHITECTURE rule 9): every environment variable of the
 * README, turned into the options of the library's deployment layers.
 */
import { Config, Duration, Option, Redacted } from "effect"
import { DEFAULT_DATA_DIR, type WaslOptions } from "@wasl/adapters"

const optional = <A>(config: Config.Config<A>) => Config.map(Config.option(config), Option.getOrUndefined)

/** `DATABASE_URL` and `WASL_DATA_DIR`: a PostgreSQL server, else the embedded database under the data directory. */
export const DatabaseConfig = Config.all({
  databaseUrl: optional(Config.Redacted("DATABASE_URL")),
  dataDir: Config.String("WASL_DATA_DIR").pipe(Config.withDefault(DEFAULT_DATA_DIR))
})
export type DatabaseConfig = Config.Success<typeof DatabaseConfig>

/** `PORT` and `HOST` of the HTTP server. */
export const ServerConfig = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
})

/** Every deployment setting: where the data is, the server key, webhooks, mail and messaging. */
export const WaslConfig: Config.Config<WaslOptions & { readonly databaseUrl: string | undefined }> = Config.all({
  database: DatabaseConfig,
  secretKey: optional(Config.Redacted("WASL_SECRET_KEY")),
  allowPrivateAddresses: Config.Boolean("WASL_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
  caFile: optional(Config.String("WASL_WEBHOOK_CA_FILE")),
  retryDelays: optional(Config.String("WASL_RETRY_DELAYS")),
  timeout: optional(Config.String("WASL_DELIVERY_TIMEOUT")),
  smtpUrl: optional(Config.Redacted("WASL_SMTP_URL")),
  from: optional(Config.String("WASL_MAIL_FROM")),
  outbox: optional(Config.String("WASL_MAIL_OUTBOX")),
  sandboxOutbox: optional(Config.String("WASL_SANDBOX_OUTBOX")),
  whatsappGraphUrl: optional(Config.String("WASL_WHATSAPP_GRAPH_URL")),
  otpCooldown: optional(Config.Duration("WASL_OTP_COOLDOWN"))
}).pipe(Config.map((c) => ({
  databaseUrl: c.database.databaseUrl === undefined ? undefined : Redacted.value(c.database.databaseUrl),
  dataDir: c.database.dataDir,
  secretKey: c.secretKey,
  webhooks: { allowPrivateAddresses: c.allowPrivateAddresses, caFile: c.caFile, retryDelays: c.retryDelays, timeout: c.timeout },
  mail: { smtpUrl: c.smtpUrl, from: c.from, outbox: c.outbox },
  messaging: {
    sandboxOutbox: c.sandboxOutbox,
    whatsappGraphUrl: c.whatsappGraphUrl,
    otpCooldown: c.otpCooldown === undefined ? undefined : Duration.fromInputUnsafe(c.otpCooldown)
  }
})))
