/**
 * The settings of a Wasl deployment, as a library user passes them to the deployment layers
 * (`WaslPostgres`, `WaslEmbedded`). Each field is the typed form of one environment variable
 * the Wasl service reads (named beside it); every field has the service's default.
 */
import { type Cause, Duration, Effect, Option, Redacted, Result, Schema } from "effect"
import { type ServerKeyInput } from "@wasl/core/Auth"
import {
  DEFAULT_DELIVERY_TIMEOUT,
  DEFAULT_RETRY_SCHEDULE,
  DELIVERY_ATTEMPTS,
  type DeliveryPolicyShape,
  parseRetrySchedule,
  type RetrySchedule
} from "@wasl/core/Deliveries"
import { DURATION_FORM, parseDurationText, parsePublicUrl } from "@wasl/core/Deployment"
import { DEFAULT_OTP_COOLDOWN } from "@wasl/core/Messaging"
import { DEFAULT_RETENTION, RETENTION_KINDS, type RetentionPolicyShape } from "@wasl/core/Retention"
import { smtpServerOf } from "../mail/smtp-url.ts"

/** Where the local files go when `dataDir` is not given (relative to the working directory). */
export const DEFAULT_DATA_DIR = "./.wasl-data"

/**
 * Webhook delivery and network settings.
 *
 * @example
 * ```ts
 * import type { WebhookOptions } from "@wasl/adapters"
 *
 * const webhooks: WebhookOptions = { retryDelays: "0s,1m,5m,30m,2h,12h", timeout: "10s" }
 * ```
 */
export interface WebhookOptions {
  /** `WASL_WEBHOOK_ALLOW_PRIVATE`: let webhook URLs reach loopback/private addresses (development and tests only). Default false. */
  readonly allowPrivateAddresses?: boolean | undefined
  /** `WASL_WEBHOOK_CA_FILE`: a PEM file of extra CAs to trust for webhook endpoints. */
  readonly caFile?: string | undefined
  /** `WASL_RETRY_DELAYS`: the delay before each of a delivery's attempts, as text (`0s,5m,30m,1h,3h,1d`) or durations. */
  readonly retryDelays?: string | RetrySchedule | undefined
  /** `WASL_DELIVERY_TIMEOUT`: the timeout of one attempt, as text (`30s`) or a duration. Default 30 s. */
  readonly timeout?: string | Duration.Duration | undefined
}

/** Outgoing mail: an SMTP server, else JSON lines in a file. */
export interface MailOptions {
  /**
   * `WASL_SMTP_URL`: `smtp://[user:pass@]host:port` (STARTTLS when offered, required with
   * credentials) or `smtps://[user:pass@]host:port` (TLS from the start).
   */
  readonly smtpUrl?: string | Redacted.Redacted<string> | undefined
  /** `WASL_SMTP_CA_FILE`: a PEM file of extra CAs to trust for the SMTP server's certificate. */
  readonly smtpCaFile?: string | undefined
  /** `WASL_MAIL_FROM`: the sender address. Default `wasl@localhost`. */
  readonly from?: string | undefined
  /** `WASL_MAIL_OUTBOX`: without an SMTP server, each mail is appended here. Default `<dataDir>/mail-outbox.jsonl`. */
  readonly outbox?: string | undefined
}

/** WhatsApp sending and one-time passwords. */
export interface MessagingOptions {
  /** `WASL_SANDBOX_OUTBOX`: where the `sandbox` provider appends each request. Default `<dataDir>/sandbox-outbox.jsonl`. */
  readonly sandboxOutbox?: string | undefined
  /** `WASL_WHATSAPP_GRAPH_URL`: base URL of the WhatsApp Cloud API. Default `https://graph.facebook.com/v21.0`. */
  readonly whatsappGraphUrl?: string | undefined
  /** `WASL_OTP_COOLDOWN`: how long after an accepted OTP send the same recipient gets 429, as text (`60s`) or a duration. Default 60 s. */
  readonly otpCooldown?: string | Duration.Duration | undefined
  /** `WASL_MEDIA_DIR`: where the media of received messages is kept. Default `<dataDir>/media`. */
  readonly mediaDir?: string | undefined
  /** `WASL_MEDIA_MAX_BYTES`: the largest received file the worker keeps. Default 16 MiB. */
  readonly mediaMaxBytes?: number | undefined
  /** `WASL_WHATSAPP_SEND_RATE`: the messages a second a campaign sends per sending number. Default 80. */
  readonly whatsappSendRate?: number | undefined
}

/**
 * How long finished rows are kept before the worker prunes them, each as text (`30d`, `12h`) or a
 * duration.
 *
 * @example
 * ```ts
 * import type { RetentionOptions } from "@wasl/adapters"
 *
 * const retention: RetentionOptions = { deliveries: "7d", notifications: "180d" }
 * ```
 */
export interface RetentionOptions {
  /** `WASL_RETENTION_DELIVERIES`: finished webhook deliveries and their attempts, from when they finished. Default 30 days. */
  readonly deliveries?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_NOTIFICATIONS`: notifications, from when they were read (unread ones are kept). Default 90 days. */
  readonly notifications?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_VERIFICATIONS`: OTP verifications, from their expiry. Default 30 days. */
  readonly verifications?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_IDEMPOTENCY`: kept `Idempotency-Key` answers, from their expiry (24 hours after the first request). Default 0: at once. */
  readonly idempotency?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_EXPORTS`: the files of CSV exports, from when they were written; the download expires then, the export as long again later. Default 7 days. */
  readonly exports?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_IMPORTS`: finished CSV imports with their refused rows, from when they finished. Default 30 days. */
  readonly imports?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_RESERVATIONS`: OTP credit reservations once settled or released, from then. Default 30 days. */
  readonly reservations?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_STATUS_HOLDS`: statuses Meta reported for a message the account never stored, from when they arrived. Default 7 days. */
  readonly statusHolds?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_INVITATIONS`: invitations once accepted, revoked or expired, from then. Default 30 days. */
  readonly invitations?: string | Duration.Duration | undefined
  /** `WASL_RETENTION_TRASH`: deleted records in the trash, from their deletion. Default 30 days. */
  readonly trash?: string | Duration.Duration | undefined,
  /** `WASL_RETENTION_HISTORY`: records' property history, from the change each entry records. Default 365 days. */
  readonly history?: string | Duration.Duration | undefined
}

/**
 * The settings every deployment shape shares (`WaslPostgres`, `WaslEmbedded`). Every field is
 * optional: a first start needs none of them.
 *
 * @example
 * ```ts
 * import { Duration, Redacted } from "effect"
 * import { type WaslOptions, WaslPostgres } from "@wasl/adapters"
 *
 * const options: WaslOptions = {
 *   secretKey: Redacted.make(process.env.WASL_SECRET_KEY!),
 *   webhooks: { timeout: "10s" },
 *   mail: { smtpUrl: "smtps://wasl:secret@mail.example:465", from: "crm@example.com" },
 *   messaging: { otpCooldown: Duration.seconds(90) }
 * }
 * const Wasl = WaslPostgres.layer({ ...options, url: "postgres://wasl@db.example/wasl" })
 * ```
 */
export interface WaslOptions {
  /** `WASL_DATA_DIR`: local files (the key file, the outboxes; the embedded database). Default `./.wasl-data`. */
  readonly dataDir?: string | undefined
  /**
   * `WASL_SECRET_KEY`: the server key, 32 bytes or 64 hexadecimal characters. Webhook secrets
   * are sealed and OTP codes hashed under keys derived from it, so every process sharing a
   * database needs the same one. Default: the key file `<dataDir>/secret.key`, created once.
   */
  readonly secretKey?: ServerKeyInput | undefined
  /** Webhook deliveries: retry delays, attempt timeout, private addresses, extra CAs. */
  readonly webhooks?: WebhookOptions | undefined
  /** Outgoing mail: an SMTP server, else JSON lines in a file. */
  readonly mail?: MailOptions | undefined
  /** WhatsApp sending and one-time passwords. */
  readonly messaging?: MessagingOptions | undefined
  /** How long finished deliveries, notifications, OTP verifications and idempotency keys are kept. */
  readonly retention?: RetentionOptions | undefined
  /** Connections in the database pool. Default 10. */
  readonly maxConnections?: number | undefined
  /**
   * `WASL_PUBLIC_URL`: where clients reach Wasl (`https://crm.example.com`, or with the path prefix
   * a proxy strips), the base of every link it writes, in answers and mails, whatever Host a
   * request carries; an https one also marks the session cookie `Secure`. Default: none, and an
   * answer's links are on the request's own host, a mail names paths alone.
   */
  readonly publicUrl?: string | undefined
}

const WaslConfigErrorBase: Schema.Class<
  WaslConfigError,
  Schema.TaggedStruct<"WaslConfigError", { readonly message: Schema.String }>,
  Cause.YieldableError
> = Schema.TaggedError<WaslConfigError>()("WaslConfigError", {
  message: Schema.String
})

/**
 * A setting that cannot be used (a retry schedule or a timeout that does not parse, a host
 * `PgClient` not made with `waslPgClientOptions`); the message names the setting and the accepted
 * form. Building a deployment layer fails with it.
 */
export class WaslConfigError extends WaslConfigErrorBase {}

/**
 * The delivery policy of the options: the retry schedule and the attempt timeout, each parsed from
 * text when given as text. Fails with `WaslConfigError` when one does not parse or the schedule
 * does not have one delay per attempt. Internal plumbing of the deployment layers (`WaslPostgres`,
 * `WaslEmbedded`, `WaslMemory`); exported for them.
 */
export const deliveryPolicyOf = (options: WebhookOptions = {}): Effect.Effect<DeliveryPolicyShape, WaslConfigError> =>
  Effect.gen(function*() {
    const delays = options.retryDelays
    const schedule = delays === undefined
      ? DEFAULT_RETRY_SCHEDULE
      : typeof delays === "string"
      ? yield* Effect.fromResult(
        Result.mapError(parseRetrySchedule(delays), (problem) => new WaslConfigError({ message: `WASL_RETRY_DELAYS: ${problem}` }))
      )
      : delays.length === DELIVERY_ATTEMPTS
      ? delays
      : yield* Effect.fail(
        new WaslConfigError({ message: `retryDelays: expected ${DELIVERY_ATTEMPTS} delays, received ${delays.length}` })
      )
    const timeout = yield* durationSetting("WASL_DELIVERY_TIMEOUT", options.timeout, DEFAULT_DELIVERY_TIMEOUT)
    return { schedule, timeout }
  })

/** A duration setting given as text (`500ms`, `30s`, `5m`, `1h`, `30d`, `60 seconds`) or a duration; `fallback` when not given. */
const durationSetting = (
  name: string,
  value: string | Duration.Duration | undefined,
  fallback: Duration.Duration
): Effect.Effect<Duration.Duration, WaslConfigError> =>
  value === undefined
    ? Effect.succeed(fallback)
    : typeof value === "string"
    ? Option.match(parseDurationText(value), {
      onNone: () => Effect.fail(new WaslConfigError({ message: `${name}: expected ${DURATION_FORM}, received "${value}"` })),
      onSome: Effect.succeed
    })
    : Effect.succeed(value)

/**
 * The OTP cooldown of the options, parsed from text when given as text. Fails with
 * `WaslConfigError` when it does not parse. Internal plumbing of the deployment layers; exported
 * for them.
 */
export const otpCooldownOf = (
  otpCooldown: string | Duration.Duration | undefined
): Effect.Effect<Duration.Duration, WaslConfigError> => durationSetting("WASL_OTP_COOLDOWN", otpCooldown, DEFAULT_OTP_COOLDOWN)

/**
 * The retention policy of the options, each duration parsed from text when given as text. Fails
 * with `WaslConfigError` when one does not parse. Internal plumbing of the deployment layers;
 * exported for them.
 */
export const retentionPolicyOf = (options: RetentionOptions = {}): Effect.Effect<RetentionPolicyShape, WaslConfigError> =>
  Effect.gen(function*() {
    const policy: Partial<Record<keyof RetentionPolicyShape, Duration.Duration>> = {}
    for (const kind of RETENTION_KINDS) {
      // statusHolds: WASL_RETENTION_STATUS_HOLDS
      const setting = `WASL_RETENTION_${kind.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`
      policy[kind] = yield* durationSetting(setting, options[kind], DEFAULT_RETENTION[kind])
    }
    return policy as RetentionPolicyShape
  })

/**
 * The public URL of the options, normalised (`PublicUrl`); undefined when not given. Fails with
 * `WaslConfigError` when it is not an absolute http(s) URL without query or fragment. Internal
 * plumbing of the deployment layers; exported for them.
 */
export const publicUrlOf = (publicUrl: string | undefined): Effect.Effect<string | undefined, WaslConfigError> =>
  publicUrl === undefined
    ? Effect.succeed(undefined)
    : Effect.fromResult(Result.mapError(
      parsePublicUrl(publicUrl),
      // Not quoted: a refused URL may hold a password.
      (form) => new WaslConfigError({ message: `WASL_PUBLIC_URL: expected ${form}` })
    ))

/**
 * Checks the mail options at start: a `WASL_SMTP_URL` that is not a usable `smtp://` or
 * `smtps://` URL fails with `WaslConfigError` (its message never quotes the URL, which may hold
 * a password), rather than every mail failing later. Internal plumbing of the deployment layers;
 * exported for them.
 */
export const checkMailOptions = (options: MailOptions = {}): Effect.Effect<void, WaslConfigError> => {
  const url = options.smtpUrl === undefined ? "" : Redacted.isRedacted(options.smtpUrl) ? Redacted.value(options.smtpUrl) : options.smtpUrl
  return url === ""
    ? Effect.void
    : Result.match(smtpServerOf(url), {
      onFailure: (message) => Effect.fail(new WaslConfigError({ message })),
      onSuccess: () => Effect.void
    })
}
