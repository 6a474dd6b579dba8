/** `MailerSmtp`: mail over SMTP, through nodemailer. */
import { MailError, Mailer } from "@wasl/core/Mail"
import { Effect, Layer, Result } from "effect"
import * as Fs from "node:fs"
import { rootCertificates } from "node:tls"
import { createTransport, type NodemailerError } from "nodemailer"
import { smtpServerOf } from "./smtp-url.ts"

/** Options of `MailerSmtp`. */
export interface SmtpOptions {
  /**
   * `smtp://[user:pass@]host[:port]` (port 25 by default; STARTTLS when the server offers it, and
   * required when credentials are given) or `smtps://[user:pass@]host[:port]` (TLS from the
   * first byte, port 465 by default). User and password are URL-encoded.
   */
  readonly url: string
  /** The sender address (`crm@example.com` or `"Wasl" <crm@example.com>`). */
  readonly from: string
  /** A PEM file of extra CAs to trust for the server's certificate (`WASL_SMTP_CA_FILE`). */
  readonly caFile?: string | undefined
  /** How long connecting, the greeting and each reply may take, in milliseconds. Default 30,000. */
  readonly timeoutMillis?: number | undefined
}

/**
 * Why a send failed, for the log: nodemailer's message (the server's reply or the network error)
 * led by what failed. The password is cut out should a server echo it back.
 */
const reasonOf = (cause: unknown, password: string | undefined): string => {
  const error = cause as Partial<NodemailerError>
  const message = cause instanceof Error ? cause.message : String(cause)
  const what = error.code === "EAUTH"
    ? "SMTP authentication refused"
    : error.code === "ETLS" || error.code === "EREQUIRETLS"
    ? "SMTP TLS failed"
    : error.code === "ECONNECTION" || error.code === "ESOCKET" || error.code === "ETIMEDOUT" || error.code === "EDNS"
    ? "SMTP server unreachable"
    : "SMTP send failed"
  const reason = `${what}: ${message}`
  return password === undefined || password === "" ? reason : reason.split(password).join("***")
}

/**
 * `Mailer` over SMTP (`WASL_SMTP_URL`), sent with nodemailer, one connection per mail (notices
 * are rare). `smtps://` is TLS from the start; `smtp://` upgrades with STARTTLS when the server
 * offers it, and insists on it when the URL carries credentials, so they never cross the network
 * in clear (nodemailer picks AUTH PLAIN or LOGIN, whichever the server offers). The server's
 * certificate is checked against Node's CAs and those of `caFile`. nodemailer encodes the headers
 * (a line break in a subject cannot add a header) and the UTF-8 text.
 *
 * Sending fails with `MailError`: what failed (authentication, TLS, the connection, the server's
 * refusal) and the server's reply; never the password.
 */
export const MailerSmtp = (options: SmtpOptions): Layer.Layer<Mailer> =>
  Layer.effect(
    Mailer,
    Effect.gen(function*() {
      const server = smtpServerOf(options.url)
      // The deployment layers refuse such a URL at start; a layer built on its own fails each send.
      if (Result.isFailure(server)) return Mailer.of({ send: () => Effect.fail(new MailError({ message: server.failure })) })
      const connection = server.success
      const extraCa = options.caFile === undefined || options.caFile === ""
        ? []
        : [yield* Effect.sync(() => Fs.readFileSync(options.caFile!, "utf8"))]
      const timeout = options.timeoutMillis ?? 30_000
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() =>
          createTransport({
            host: connection.host,
            port: connection.port,
            secure: connection.secure,
            requireTLS: !connection.secure && connection.auth !== undefined,
            auth: connection.auth,
            tls: extraCa.length > 0 ? { ca: [...rootCertificates, ...extraCa] } : {},
            connectionTimeout: timeout,
            greetingTimeout: timeout,
            socketTimeout: timeout,
            logger: false
          })
        ),
        (transport) => Effect.sync(() => transport.close())
      )
      return Mailer.of({
        send: (mail) =>
          Effect.tryPromise({
            try: () => transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text }),
            catch: (cause) => new MailError({ message: reasonOf(cause, connection.auth?.pass) })
          }).pipe(Effect.asVoid)
      })
    })
  )
