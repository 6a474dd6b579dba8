/**
 * Configuration, read once at the edge (ARCHITECTURE rule 9): every environment variable of the
 * README, turned into the options of the library's deployment layers.
 */
import { Config, Duration, Option, Redacted, Result, Schema } from "effect"
import type { IpNetwork } from "effect/net"
import { DEFAULT_DATA_DIR, type WaslOptions } from "@wasl/adapters"
import { parseRateRule, type RateLimitPolicyShape, type RateRule } from "@wasl/core"
import { parseTrustedProxies } from "@wasl/http"

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

/**
 * `WASL_METRICS_TOKEN`: the bearer token `GET /metrics` asks for; unset, the metrics are open to
 * whoever reaches the port.
 */
export const MetricsTokenConfig: Config.Config<Redacted.Redacted<string> | undefined> = optional(
  Config.Redacted("WASL_METRICS_TOKEN")
)

/**
 * `WASL_WORKER_HEALTH_PORT`: the port of `apps/worker`'s own listener (its probes and metrics),
 * on `HOST`; unset (the default), the worker listens on no port.
 */
export const WorkerHealthConfig = Config.all({
  port: optional(Config.Port("WASL_WORKER_HEALTH_PORT")),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
})

/** A rate limit `<requests>/<duration>` (`600/1 minute`), `<requests>` per minute, or `0` for none. */
const rateRule = (name: string, fallback: string): Config.Config<RateRule> =>
  Config.schema(
    Schema.String.check(Schema.makeFilter((text: string) =>
      Option.isSome(parseRateRule(text)) ||
      `${name}: expected <requests>/<duration> (600/1 minute), <requests> per minute, or 0 for no limit`
    )),
    name
  ).pipe(Config.withDefault(fallback), Config.map((text) => Option.getOrThrow(parseRateRule(text))))

/**
 * `WASL_RATE_LIMIT` (per API token, or per user for sessions), `WASL_RATE_LIMIT_LOGIN` (per email
 * and per client address) and `WASL_RATE_LIMIT_OTP_VERIFY` (per account).
 */
export const RateLimitConfig: Config.Config<RateLimitPolicyShape> = Config.all({
  caller: rateRule("WASL_RATE_LIMIT", "600/1 minute"),
  login: rateRule("WASL_RATE_LIMIT_LOGIN", "10/1 minute"),
  otpVerify: rateRule("WASL_RATE_LIMIT_OTP_VERIFY", "120/1 minute")
})

/** `WASL_TRUST_PROXY`: the proxies whose `X-Forwarded-For` gives the client address; none by default. */
export const TrustProxyConfig: Config.Config<ReadonlyArray<IpNetwork.IpNetwork>> = Config.schema(
  Schema.String.check(Schema.makeFilter((text: string) =>
    Result.match(parseTrustedProxies(text), {
      onSuccess: () => true,
      onFailure: (entry) => `WASL_TRUST_PROXY: "${entry}" is neither an IP address nor a network (10.0.0.0/8)`
    })
  )),
  "WASL_TRUST_PROXY"
).pipe(Config.withDefault(""), Config.map((text) => Result.getOrThrow(parseTrustedProxies(text))))

/** Every deployment setting: where the data is, the server key, webhooks, mail, messaging and retention. */
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
  otpCooldown: optional(Config.Duration("WASL_OTP_COOLDOWN")),
  retainDeliveries: optional(Config.String("WASL_RETENTION_DELIVERIES")),
  retainNotifications: optional(Config.String("WASL_RETENTION_NOTIFICATIONS")),
  retainVerifications: optional(Config.String("WASL_RETENTION_VERIFICATIONS")),
  retainIdempotency: optional(Config.String("WASL_RETENTION_IDEMPOTENCY"))
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
  },
  retention: {
    deliveries: c.retainDeliveries,
    notifications: c.retainNotifications,
    verifications: c.retainVerifications,
    idempotency: c.retainIdempotency
  }
})))
