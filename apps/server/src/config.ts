/**
 * Configuration, read once at the edge (core never reads the environment): every environment variable of the
 * README, each turned into its typed value here, before anything starts. A value that cannot be
 * used fails the read with a message naming the variable and the accepted form (see
 * `describeConfigError`), so a process refuses it before it touches the database.
 */
import { Config, Duration, Option, Redacted, Result, Schema, SchemaIssue } from "effect"
import type { IpNetwork } from "effect/net"
import * as Fs from "node:fs"
import { DEFAULT_DATA_DIR, type WaslOptions } from "@wasl/adapters/Deployment"
import { parseRateRule, parseServerKey, type RateLimitPolicyShape, type RateRule } from "@wasl/core/Auth"
import { parseRetrySchedule, type RetrySchedule } from "@wasl/core/Deliveries"
import { DURATION_FORM, parseDurationText, parsePublicUrl } from "@wasl/core/Deployment"
import { type WhatsAppWebhookSecrets } from "@wasl/core/WhatsApp"
import { DEFAULT_STREAMS_PER_USER, parseTrustedProxies } from "@wasl/http/Routes"
import { DEFAULT_REQUEST_TIMEOUT } from "./node-server.ts"

/** Why a text is not a value of a setting: the accepted form, and the text itself unless secret. */
const refused = (form: string, text?: string) => Result.fail(text === undefined ? `expected ${form}` : `expected ${form}, received "${text}"`)

/**
 * The setting `name` read by `parse`: undefined when unset or blank (as `NAME=` in a compose file
 * means), else the parsed value, or a failure that names the setting.
 */
export const setting = <A>(name: string, parse: (text: string) => Result.Result<A, string>): Config.Config<A | undefined> =>
  Config.option(Config.String(name)).pipe(Config.flatMap((text) => {
    if (Option.isNone(text) || text.value.trim() === "") return Config.succeed(undefined)
    return Result.match(parse(text.value), {
      onSuccess: (value) => Config.succeed<A | undefined>(value),
      onFailure: (problem) =>
        Config.fail(new Schema.SchemaError(new SchemaIssue.Pointer([name], new SchemaIssue.InvalidValue({ message: problem }))))
    })
  }))

/** `setting` with the value used when it is unset. */
export const withFallback = <A>(config: Config.Config<A | undefined>, fallback: A): Config.Config<A> =>
  Config.map(config, (value) => value === undefined ? fallback : value)

const text = (name: string) => setting(name, Result.succeed)

/** A duration in the one syntax of every setting (`500ms`, `2s`, `5m`, `1h`, `1d`, `60 seconds`). */
const durationSetting = (name: string): Config.Config<Duration.Duration | undefined> =>
  setting(name, (value) => Option.match(parseDurationText(value), { onNone: () => refused(DURATION_FORM, value), onSome: Result.succeed }))

/**
 * A PEM file of CA certificates, read here so that a missing or wrong file stops start-up in one
 * line rather than when the first webhook or mail needs it. The path is a path, not a secret.
 */
const caFileSetting = (name: string) =>
  setting(name, (value) => {
    const path = value.trim()
    let pem = ""
    try {
      pem = Fs.readFileSync(path, "utf8")
    } catch {
      // unreadable: refused below, like a file without a certificate
    }
    return pem.includes("-----BEGIN CERTIFICATE-----")
      ? Result.succeed(path)
      : refused("a readable PEM file of CA certificates", path)
  })

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, yes: true, no: false, on: true, off: false, "1": true, "0": false }

const booleanSetting = (name: string) =>
  setting(name, (value) => {
    const known = BOOLEANS[value.trim().toLowerCase()]
    return known === undefined ? refused("true or false", value) : Result.succeed(known)
  })

/** A URL of one of `protocols`; the text is not repeated in the message since it may hold a password. */
const urlSetting = (name: string, protocols: ReadonlyArray<string>, form: string) =>
  setting(name, (value) => {
    const url = URL.parse(value.trim())
    return url !== null && protocols.includes(url.protocol) ? Result.succeed(value.trim()) : refused(form)
  })

/**
 * `WASL_PUBLIC_URL`: where clients reach Wasl, the base of every link it writes; refused unless an
 * absolute http(s) URL without query or fragment (not quoted: it may hold a password).
 */
const publicUrlSetting = setting("WASL_PUBLIC_URL", (value) => Result.mapError(parsePublicUrl(value), (form) => `expected ${form}`))

/** A whole number from `min` to `max`; `form` says so when the value is not one. */
const integerSetting = (name: string, min: number, max: number, form: string) =>
  setting(name, (value) => {
    const number = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN
    return number >= min && number <= max ? Result.succeed(number) : refused(form, value)
  })

/**
 * `WASL_DATABASE_POOL`: the connections a process keeps for its queries (1000 is far beyond what
 * one process keeps busy).
 */
const poolSetting = integerSetting("WASL_DATABASE_POOL", 1, 1000, "a number of connections from 1 to 1000")

/**
 * `WASL_DATABASE_READ_URL`: one or more PostgreSQL URLs, comma-separated, of the server's streaming
 * standbys (the records' lists, searches and exports read there once caught up).
 */
const readUrlsSetting = Config.map(
  setting("WASL_DATABASE_READ_URL", (value) => {
    const urls = value.split(",").map((url) => url.trim()).filter((url) => url !== "")
    const bad = urls.some((url) => {
      const parsed = URL.parse(url)
      return parsed === null || !["postgres:", "postgresql:"].includes(parsed.protocol)
    })
    return urls.length === 0 || bad
      ? refused("PostgreSQL URLs separated by commas, such as postgres://user:password@replica:5432/database")
      : Result.succeed(urls.map((url) => Redacted.make(url)))
  }),
  (urls) => urls ?? []
)

/**
 * `DATABASE_URL` and `WASL_DATA_DIR`: a PostgreSQL server, else the embedded database under the
 * data directory; `WASL_DATABASE_POOL`: the pool's size on either; `WASL_DATABASE_LISTEN_URL`: the
 * server itself when `DATABASE_URL` is a pooler in transaction mode.
 */
export const DatabaseConfig = Config.all({
  databaseUrl: Config.map(
    urlSetting("DATABASE_URL", ["postgres:", "postgresql:"], "a PostgreSQL URL such as postgres://user:password@host:5432/database"),
    (url) => url === undefined ? undefined : Redacted.make(url)
  ),
  readUrls: readUrlsSetting,
  listenUrl: Config.map(
    urlSetting("WASL_DATABASE_LISTEN_URL", ["postgres:", "postgresql:"], "a PostgreSQL URL such as postgres://user:password@host:5432/database"),
    (url) => url === undefined ? undefined : Redacted.make(url)
  ),
  dataDir: withFallback(text("WASL_DATA_DIR"), DEFAULT_DATA_DIR),
  maxConnections: poolSetting
})
export type DatabaseConfig = Config.Success<typeof DatabaseConfig>

/** A port number, 0 to 65535. */
const portSetting = (name: string) => integerSetting(name, 0, 65535, "a port number from 0 to 65535")

/** `PORT` and `HOST` of the HTTP server. */
export const ServerConfig = Config.all({
  port: withFallback(portSetting("PORT"), 3000),
  host: withFallback(text("HOST"), "0.0.0.0")
})

/**
 * `WASL_METRICS_TOKEN`: the bearer token `GET /metrics` asks for; unset, the metrics are open to
 * whoever reaches the port, within `WASL_RATE_LIMIT` per client address.
 */
export const MetricsTokenConfig: Config.Config<Redacted.Redacted<string> | undefined> = setting(
  "WASL_METRICS_TOKEN",
  (value) => Result.succeed(Redacted.make(value.trim()))
)

/**
 * `WASL_WORKER_HEALTH_PORT`: the port of `apps/worker`'s own listener (its probes and metrics), on
 * `HOST`; unset (the default), the worker listens on no port.
 */
export const WorkerHealthConfig = Config.all({
  port: portSetting("WASL_WORKER_HEALTH_PORT"),
  host: withFallback(text("HOST"), "0.0.0.0")
})
export type WorkerHealthConfig = Config.Success<typeof WorkerHealthConfig>

const RATE_RULE_FORM = "<requests>/<duration> (600/1m), <requests> per minute, or 0 for no limit"

/** A rate limit `<requests>/<duration>` (`600/1 minute`, `10/15m`), `<requests>` per minute, or `0` for none. */
const rateRule = (name: string, fallback: string): Config.Config<RateRule> =>
  withFallback(
    setting(name, (value) => Option.match(parseRateRule(value), { onNone: () => refused(RATE_RULE_FORM, value), onSome: Result.succeed })),
    Option.getOrThrow(parseRateRule(fallback))
  )

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
export const TrustProxyConfig: Config.Config<ReadonlyArray<IpNetwork.IpNetwork>> = withFallback(
  setting("WASL_TRUST_PROXY", (value) =>
    Result.mapError(
      parseTrustedProxies(value),
      (entry) => `"${entry}" is neither an IP address nor a network; expected addresses and networks such as 10.0.0.0/8, 127.0.0.1`
    )),
  []
)

/**
 * `WASL_STREAMS_PER_USER`: the notification streams one user may hold open at once, in each
 * server process (a stream holds a socket and a subscription for as long as it lasts).
 */
export const StreamsPerUserConfig: Config.Config<number> = withFallback(
  integerSetting("WASL_STREAMS_PER_USER", 1, 1000, "a number of streams from 1 to 1000"),
  DEFAULT_STREAMS_PER_USER
)

/**
 * `WASL_REQUEST_TIMEOUT`: how long a request's body may take to arrive (a large one that keeps
 * coming gets longer; see node-server.ts), 30 seconds by default; from a second to a day.
 */
export const RequestTimeoutConfig: Config.Config<Duration.Duration> = withFallback(
  setting("WASL_REQUEST_TIMEOUT", (value) =>
    Option.match(
      Option.filter(
        parseDurationText(value),
        Duration.between({ minimum: Duration.seconds(1), maximum: Duration.days(1) })
      ),
      { onNone: () => refused("a duration from 1s to 1d, such as 30s", value), onSome: Result.succeed }
    )),
  DEFAULT_REQUEST_TIMEOUT
)

const secretText = (name: string) => setting(name, (value) => Result.succeed(Redacted.make(value.trim())))

/**
 * `WASL_WHATSAPP_APP_SECRET` (the Meta app's secret, which signs its callbacks) and
 * `WASL_WHATSAPP_VERIFY_TOKEN` (the token Meta echoes when it verifies the callback URL): both
 * turn on `/api/whatsapp/webhook`, neither leaves it answering 404, and one without the other is
 * refused (a receiver that could verify its URL but never accept a callback, or the reverse).
 */
export const WhatsAppWebhookConfig: Config.Config<WhatsAppWebhookSecrets | undefined> = Config.all({
  appSecret: secretText("WASL_WHATSAPP_APP_SECRET"),
  verifyToken: secretText("WASL_WHATSAPP_VERIFY_TOKEN")
}).pipe(Config.flatMap(({ appSecret, verifyToken }) => {
  if (appSecret !== undefined && verifyToken !== undefined) return Config.succeed({ appSecret, verifyToken })
  if (appSecret === undefined && verifyToken === undefined) return Config.succeed(undefined)
  const missing = appSecret === undefined ? "WASL_WHATSAPP_APP_SECRET" : "WASL_WHATSAPP_VERIFY_TOKEN"
  return Config.fail(new Schema.SchemaError(new SchemaIssue.Pointer([missing], new SchemaIssue.InvalidValue({
    message: "expected it beside WASL_WHATSAPP_APP_SECRET and WASL_WHATSAPP_VERIFY_TOKEN: set both to receive WhatsApp callbacks, or neither"
  }))))
}))

/**
 * What `GET /metrics` answers by, on the server's port and on the worker's: its token, and for a
 * scrape without it the caller limit per client address and the proxies that forward the address.
 */
export const MetricsAccessConfig = Config.all({
  metricsToken: MetricsTokenConfig,
  rateLimits: RateLimitConfig,
  trustedProxies: TrustProxyConfig
})
export type MetricsAccessConfig = Config.Success<typeof MetricsAccessConfig>

/**
 * Everything the HTTP server reads beyond the services: where it listens, how long a request may
 * take to arrive, its rate limits and proxies, the open notification streams a user may hold, the
 * token of its metrics, and the secrets of the WhatsApp receiver.
 */
export const HttpConfig = Config.all({
  server: ServerConfig,
  requestTimeout: RequestTimeoutConfig,
  rateLimits: RateLimitConfig,
  trustedProxies: TrustProxyConfig,
  streamsPerUser: StreamsPerUserConfig,
  metricsToken: MetricsTokenConfig,
  whatsappWebhook: WhatsAppWebhookConfig
})
export type HttpConfig = Config.Success<typeof HttpConfig>

const retrySchedule: Config.Config<RetrySchedule | undefined> = setting("WASL_RETRY_DELAYS", parseRetrySchedule)

const secretKey = setting("WASL_SECRET_KEY", (value) =>
  Result.isSuccess(parseServerKey(value))
    ? Result.succeed(Redacted.make(value.trim()))
    : refused("64 hexadecimal characters (a 32-byte key)"))

/** Every deployment setting: where the data is, the server key, the public URL, webhooks, mail, messaging and retention. */
export const WaslConfig: Config.Config<
  WaslOptions & {
    readonly databaseUrl: string | undefined
    readonly readUrls: ReadonlyArray<string>
    readonly listenUrl: string | undefined
  }
> = Config.all({
  database: DatabaseConfig,
  secretKey,
  allowPrivateAddresses: withFallback(booleanSetting("WASL_WEBHOOK_ALLOW_PRIVATE"), false),
  caFile: caFileSetting("WASL_WEBHOOK_CA_FILE"),
  retryDelays: retrySchedule,
  timeout: durationSetting("WASL_DELIVERY_TIMEOUT"),
  smtpUrl: Config.map(
    urlSetting("WASL_SMTP_URL", ["smtp:", "smtps:"], "smtp://[user:password@]host:port or smtps://[user:password@]host:port"),
    (url) => url === undefined ? undefined : Redacted.make(url)
  ),
  smtpCaFile: caFileSetting("WASL_SMTP_CA_FILE"),
  from: text("WASL_MAIL_FROM"),
  outbox: text("WASL_MAIL_OUTBOX"),
  sandboxOutbox: text("WASL_SANDBOX_OUTBOX"),
  mediaDir: text("WASL_MEDIA_DIR"),
  // Meta's own limit is 100 MB (documents); a file beyond the setting is marked failed, never kept.
  mediaMaxBytes: integerSetting("WASL_MEDIA_MAX_BYTES", 1, 100 * 1024 * 1024, "a number of bytes from 1 to 104857600"),
  publicUrl: publicUrlSetting,
  whatsappGraphUrl: urlSetting("WASL_WHATSAPP_GRAPH_URL", ["https:", "http:"], "an http(s) URL such as https://graph.facebook.com/v21.0"),
  otpCooldown: durationSetting("WASL_OTP_COOLDOWN"),
  // WhatsApp's own pace is 80 a second per number; a business with a higher limit raises it.
  whatsappSendRate: integerSetting("WASL_WHATSAPP_SEND_RATE", 1, 10_000, "a number of messages a second from 1 to 10000"),
  retainDeliveries: durationSetting("WASL_RETENTION_DELIVERIES"),
  retainNotifications: durationSetting("WASL_RETENTION_NOTIFICATIONS"),
  retainVerifications: durationSetting("WASL_RETENTION_VERIFICATIONS"),
  retainIdempotency: durationSetting("WASL_RETENTION_IDEMPOTENCY"),
  retainExports: durationSetting("WASL_RETENTION_EXPORTS"),
  retainImports: durationSetting("WASL_RETENTION_IMPORTS"),
  retainReservations: durationSetting("WASL_RETENTION_RESERVATIONS"),
  retainStatusHolds: durationSetting("WASL_RETENTION_STATUS_HOLDS"),
  retainInvitations: durationSetting("WASL_RETENTION_INVITATIONS"),
  retainTrash: durationSetting("WASL_RETENTION_TRASH"),
  retainHistory: durationSetting("WASL_RETENTION_HISTORY")
}).pipe(Config.map((c) => ({
  databaseUrl: c.database.databaseUrl === undefined ? undefined : Redacted.value(c.database.databaseUrl),
  readUrls: c.database.readUrls.map((url) => Redacted.value(url)),
  listenUrl: c.database.listenUrl === undefined ? undefined : Redacted.value(c.database.listenUrl),
  dataDir: c.database.dataDir,
  maxConnections: c.database.maxConnections,
  secretKey: c.secretKey,
  publicUrl: c.publicUrl,
  webhooks: { allowPrivateAddresses: c.allowPrivateAddresses, caFile: c.caFile, retryDelays: c.retryDelays, timeout: c.timeout },
  mail: { smtpUrl: c.smtpUrl, smtpCaFile: c.smtpCaFile, from: c.from, outbox: c.outbox },
  messaging: {
    sandboxOutbox: c.sandboxOutbox,
    whatsappGraphUrl: c.whatsappGraphUrl,
    otpCooldown: c.otpCooldown,
    mediaDir: c.mediaDir,
    mediaMaxBytes: c.mediaMaxBytes,
    whatsappSendRate: c.whatsappSendRate
  },
  retention: {
    deliveries: c.retainDeliveries,
    notifications: c.retainNotifications,
    verifications: c.retainVerifications,
    idempotency: c.retainIdempotency,
    exports: c.retainExports,
    imports: c.retainImports,
    reservations: c.retainReservations,
    statusHolds: c.retainStatusHolds,
    invitations: c.retainInvitations,
    trash: c.retainTrash,
    history: c.retainHistory
  }
})))
export type WaslConfig = Config.Success<typeof WaslConfig>

/**
 * One line for a configuration that cannot be read: `NAME: problem` (the problem says the
 * accepted form), without the schema's path notation or a stack.
 */
export const describeConfigError = (error: Config.ConfigError): string => {
  const cause = error.cause
  if (!Schema.isSchemaError(cause)) return cause.message
  const name = cause.issue._tag === "Pointer" ? cause.issue.path.map(String).join(".") : undefined
  const problem = cause.message.split("\n")[0]!
  return name === undefined ? problem : `${name}: ${problem}`
}
