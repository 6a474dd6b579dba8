/** `MailerSmtp`: mail over SMTP. */
import { type Mail, MailError, Mailer } from "@wasl/core"
import { Effect, Layer } from "effect"
import { connect as netConnect, type Socket } from "node:net"
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from "node:tls"

/** Options of `MailerSmtp`. */
export interface SmtpOptions {
  /** `smtp://[user:pass@]host:port` (STARTTLS when offered) or `smtps://...` (TLS from the start). */
  readonly url: string
  /** The sender address. */
  readonly from: string
  /** Extra TLS options (a test CA). */
  readonly tls?: ConnectionOptions
  /** How long the connection may stay idle before it is dropped, in milliseconds. Default 30,000. */
  readonly timeoutMillis?: number
}

/** Reads SMTP replies (possibly multi-line) from a socket. */
class ReplyReader {
  #buffer = ""
  #waiting: Array<(reply: { code: number; lines: Array<string> }) => void> = []
  #lines: Array<string> = []
  #socket: Socket | TLSSocket
  readonly #onData = (chunk: Buffer) => {
    this.#buffer += chunk.toString("utf8")
    let nl: number
    while ((nl = this.#buffer.indexOf("\r\n")) >= 0) {
      const line = this.#buffer.slice(0, nl)
      this.#buffer = this.#buffer.slice(nl + 2)
      this.#lines.push(line.slice(4))
      if (line[3] !== "-") {
        const reply = { code: Number(line.slice(0, 3)), lines: this.#lines }
        this.#lines = []
        this.#waiting.shift()?.(reply)
      }
    }
  }
  constructor(socket: Socket | TLSSocket) {
    this.#socket = socket
    socket.on("data", this.#onData)
  }
  next(): Promise<{ code: number; lines: Array<string> }> {
    return new Promise((resolve) => this.#waiting.push(resolve))
  }
  detach(): void {
    this.#socket.off("data", this.#onData)
  }
}

const hasLineBreak = (s: string) => /[\r\n]/.test(s)

const sendMail = async (options: SmtpOptions, mail: Mail): Promise<void> => {
  if (hasLineBreak(mail.to) || hasLineBreak(mail.subject) || hasLineBreak(options.from)) {
    throw new Error("a header value contains a line break")
  }
  const url = new URL(options.url)
  const secure = url.protocol === "smtps:"
  if (!secure && url.protocol !== "smtp:") throw new Error(`unsupported mail URL scheme ${url.protocol}`)
  const host = url.hostname
  const port = Number(url.port || (secure ? 465 : 25))
  let socket: Socket | TLSSocket = await new Promise((resolve, reject) => {
    const s: Socket | TLSSocket = secure
      ? tlsConnect({ host, port, servername: host, ...options.tls }, () => resolve(s))
      : netConnect({ host, port }, () => resolve(s))
    s.once("error", reject)
  })
  socket.setTimeout(options.timeoutMillis ?? 30_000, () => socket.destroy(new Error("SMTP timeout")))
  let reader = new ReplyReader(socket)
  let isTls = secure
  const failed = new Promise<never>((_, reject) => socket.once("error", reject))
  const expect = async (codes: ReadonlyArray<number>, what: string) => {
    const reply = await Promise.race([reader.next(), failed])
    if (!codes.includes(reply.code)) throw new Error(`SMTP ${what}: ${reply.code} ${reply.lines.join(" ")}`)
    return reply
  }
  const command = async (line: string, codes: ReadonlyArray<number>, what: string) => {
    socket.write(line + "\r\n")
    return expect(codes, what)
  }
  try {
    await expect([220], "greeting")
    let ehlo = await command("EHLO wasl", [250], "EHLO")
    if (!isTls && ehlo.lines.some((l) => l.toUpperCase() === "STARTTLS")) {
      await command("STARTTLS", [220], "STARTTLS")
      reader.detach()
      const plain = socket
      socket = await new Promise<TLSSocket>((resolve, reject) => {
        const s = tlsConnect({ socket: plain, servername: host, ...options.tls }, () => resolve(s))
        s.once("error", reject)
      })
      reader = new ReplyReader(socket)
      isTls = true
      ehlo = await command("EHLO wasl", [250], "EHLO")
    }
    if (url.username !== "") {
      if (!isTls) throw new Error("refusing to send SMTP credentials without TLS")
      const token = Buffer.from(`\u0000${decodeURIComponent(url.username)}\u0000${decodeURIComponent(url.password)}`)
        .toString("base64")
      await command(`AUTH PLAIN ${token}`, [235], "AUTH")
    }
    await command(`MAIL FROM:<${options.from}>`, [250], "MAIL FROM")
    await command(`RCPT TO:<${mail.to}>`, [250, 251], "RCPT TO")
    await command("DATA", [354], "DATA")
    const body = mail.text.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..")
    const message = [
      `From: ${options.from}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      `Date: ${new Date().toUTCString()}`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      body
    ].join("\r\n")
    await command(`${message}\r\n.`, [250], "message")
    socket.write("QUIT\r\n")
  } finally {
    socket.end()
  }
}

/**
 * `Mailer` over SMTP (`WASL_SMTP_URL`): a minimal client on node:net / node:tls, one
 * connection per mail (notices are rare). `smtps://` is TLS from the start; `smtp://` upgrades
 * with STARTTLS when the server offers it. Credentials in the URL are sent with AUTH PLAIN, only
 * over TLS. Header values with line breaks are refused (header injection).
 *
 * Sending fails with `MailError` (the server's refusal or the connection's failure as its message).
 */
export const MailerSmtp = (options: SmtpOptions): Layer.Layer<Mailer> =>
  Layer.succeed(
    Mailer,
    Mailer.of({
      send: (mail) =>
        Effect.tryPromise({
          try: () => sendMail(options, mail),
          catch: (cause) => new MailError({ message: cause instanceof Error ? cause.message : String(cause) })
        })
    })
  )
