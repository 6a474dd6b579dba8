/** `smtpServerOf`: the SMTP server a `WASL_SMTP_URL` names. */
import { Result } from "effect"

/** The SMTP server and account of a `WASL_SMTP_URL`. */
export interface SmtpServer {
  /** The host name (or IP address, without IPv6 brackets). */
  readonly host: string
  /** The port: as given, else 465 with implicit TLS and 25 without. */
  readonly port: number
  /** TLS from the first byte (`smtps://`); otherwise STARTTLS. */
  readonly secure: boolean
  /** The account to authenticate as (URL-decoded), when the URL names one. */
  readonly auth: { readonly user: string; readonly pass: string } | undefined
}

/**
 * The server `url` names (`smtp://[user:pass@]host[:port]` or `smtps://...`, user and password
 * URL-encoded), or why it cannot be used. The reason never quotes the URL: it may hold a password.
 */
export const smtpServerOf = (url: string): Result.Result<SmtpServer, string> => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return Result.fail("WASL_SMTP_URL: expected smtp://[user:pass@]host[:port] or smtps://..., received something that is not a URL")
  }
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
    return Result.fail(`WASL_SMTP_URL: expected smtp://[user:pass@]host[:port] or smtps://..., received a ${parsed.protocol}// URL`)
  }
  if (parsed.hostname === "") return Result.fail("WASL_SMTP_URL: the URL names no host")
  let user: string
  let pass: string
  try {
    user = decodeURIComponent(parsed.username)
    pass = decodeURIComponent(parsed.password)
  } catch {
    return Result.fail("WASL_SMTP_URL: the user or password is not properly percent-encoded")
  }
  const secure = parsed.protocol === "smtps:"
  return Result.succeed({
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port === "" ? (secure ? 465 : 25) : Number(parsed.port),
    secure,
    auth: user === "" ? undefined : { user, pass }
  })
}
