/**
 * A local SMTP server for tests (the `smtp-server` package, the server half of nodemailer's
 * project), strict the way a mail provider is:
 *
 * - it listens on 127.0.0.1 and is reached as `localhost`, with the certificate in
 *   test/fixtures/tls (trust its CA through `WASL_SMTP_CA_FILE=TEST_CA_FILE`): STARTTLS by
 *   default, TLS from the first byte with `implicitTls`, or no TLS at all with `startTls: false`;
 * - AUTH (PLAIN and LOGIN by default) is required before MAIL FROM, and refused over a connection
 *   that is not encrypted unless TLS is off altogether (then a client that sends its password in
 *   clear is recorded doing so);
 * - every message accepted is kept as received (the raw bytes) and as `mailparser` reads it.
 */
import { type ParsedMail, simpleParser } from "mailparser"
import * as Fs from "node:fs"
import { SMTPServer } from "smtp-server"
import { LOCALHOST_CERT_FILE, LOCALHOST_KEY_FILE } from "./test-tls.ts"

export interface SmtpServerOptions {
  /** TLS from the first byte (an `smtps://` server) instead of STARTTLS. */
  readonly implicitTls?: boolean
  /** Offer STARTTLS (default true); false makes a server without any TLS. */
  readonly startTls?: boolean
  /** The AUTH mechanisms offered. Default PLAIN and LOGIN. */
  readonly authMethods?: ReadonlyArray<"PLAIN" | "LOGIN">
  /** The text of the 535 reply to a refused AUTH, from the password tried. Default "Invalid username or password". */
  readonly authRefusal?: (password: string) => string
}

/** One message the server accepted. */
export interface ReceivedMail {
  /** MAIL FROM and RCPT TO. */
  readonly envelope: { readonly from: string; readonly to: ReadonlyArray<string> }
  /** The connection was encrypted when the message was sent. */
  readonly secure: boolean
  /** Who had authenticated, and with what mechanism. */
  readonly user: string
  readonly authMethod: string
  /** The message as it arrived (headers and body). */
  readonly raw: Buffer
  /** The message as mailparser reads it. */
  readonly parsed: ParsedMail
}

/** One AUTH command the server saw. */
export interface AuthAttempt {
  readonly method: string
  readonly username: string
  readonly accepted: boolean
  /** The connection was encrypted when the credentials were sent. */
  readonly secure: boolean
}

export interface TestSmtpServer {
  readonly port: number
  /** The account the server accepts. */
  readonly user: string
  readonly password: string
  /**
   * `smtp://` (or `smtps://` for an implicit-TLS server) to `localhost:<port>`, with the account
   * URL-encoded in it unless `credentials` is false; another password with `{ password }`.
   */
  readonly url: (credentials?: false | { readonly password: string }) => string
  /** The messages accepted so far, in arrival order. */
  readonly received: () => ReadonlyArray<ReceivedMail>
  /** Every AUTH command so far. */
  readonly authAttempts: () => ReadonlyArray<AuthAttempt>
  /** Resolves with the messages once `count` have arrived, or rejects after `timeoutMs`. */
  readonly waitForMail: (count: number, timeoutMs: number) => Promise<ReadonlyArray<ReceivedMail>>
  readonly close: () => Promise<void>
}

export const startSmtpServer = async (options: SmtpServerOptions = {}): Promise<TestSmtpServer> => {
  // Characters a URL must encode, and one beyond ASCII: the client has to decode the URL right.
  const user = "wasl@mail.test"
  const password = "pa:ss/wörd@1 secret"
  const implicitTls = options.implicitTls === true
  const startTls = options.startTls !== false
  const mails: Array<ReceivedMail> = []
  const attempts: Array<AuthAttempt> = []
  const waiters = new Set<() => void>()

  const server = new SMTPServer({
    secure: implicitTls,
    key: Fs.readFileSync(LOCALHOST_KEY_FILE),
    cert: Fs.readFileSync(LOCALHOST_CERT_FILE),
    ...(implicitTls || startTls ? {} : { disabledCommands: ["STARTTLS"], allowInsecureAuth: true }),
    authMethods: [...(options.authMethods ?? ["PLAIN", "LOGIN"])],
    authOptional: false,
    logger: false,
    closeTimeout: 100,
    onAuth: (auth, session, callback) => {
      const accepted = auth.username === user && auth.password === password
      attempts.push({ method: auth.method, username: auth.username ?? "", accepted, secure: session.secure })
      if (accepted) callback(null, { user: `${auth.method} ${user}` })
      else {
        const refusal = options.authRefusal?.(auth.password ?? "") ?? "Invalid username or password"
        callback(Object.assign(new Error(refusal), { responseCode: 535 }))
      }
    },
    onData: (stream, session, callback) => {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const raw = Buffer.concat(chunks)
        simpleParser(raw).then((parsed) => {
          const [authMethod = "", name = ""] = String(session.user ?? "").split(" ")
          mails.push({
            envelope: {
              from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
              to: session.envelope.rcptTo.map((r) => r.address)
            },
            secure: session.secure,
            user: name,
            authMethod,
            raw,
            parsed
          })
          for (const waiter of [...waiters]) waiter()
          callback()
        }, (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))))
      })
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const address = server.server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const scheme = implicitTls ? "smtps" : "smtp"

  return {
    port,
    user,
    password,
    url: (credentials) =>
      credentials === false
        ? `${scheme}://localhost:${port}`
        : `${scheme}://${encodeURIComponent(user)}:${encodeURIComponent(credentials?.password ?? password)}@localhost:${port}`,
    received: () => [...mails],
    authAttempts: () => [...attempts],
    waitForMail: (count, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (mails.length < count) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve([...mails])
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`smtp server: ${mails.length} of ${count} mails within ${timeoutMs} ms`))
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
