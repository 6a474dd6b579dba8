/**
 * `MailerSmtp` (nodemailer) against a real SMTP server on a local port (test/support/smtp-server.ts:
 * `smtp-server` with the test certificate, AUTH required, each message read back with
 * `mailparser`):
 *
 * - the Webhook Deactivated notice, queued by `notifyWebhookDeactivated` and sent by
 *   `sendPendingEmails`, arrives whole over STARTTLS with AUTH PLAIN and with AUTH LOGIN: sender,
 *   recipient, subject and text;
 * - UTF-8 (Arabic sender name, subject and text) arrives as written, and a line break in a subject
 *   adds no header;
 * - `smtps://` speaks TLS from the first byte;
 * - a wrong password, and a server that cannot be reached, are logged by the mail loop as the
 *   reason the mail was not sent (never the password) and the mail is sent by a later run;
 * - credentials never cross an unencrypted connection, and a certificate of an unknown CA is
 *   refused.
 */
import { assert, describe, it } from "@effect/vitest"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { Mailer } from "@wasl/core/Mail"
import { sendPendingEmails } from "@wasl/core/Notifications"
import { notifyWebhookDeactivated } from "@wasl/core/Webhooks"
import { WaslMemory } from "../../src/memory/index.ts"
import { Effect, Exit, Layer, Logger } from "effect"
import { createServer } from "node:net"
import { type AddressObject } from "mailparser"
import { startSmtpServer, type SmtpServerOptions, type TestSmtpServer } from "../../../../test/support/smtp-server.ts"
import { TEST_CA_FILE } from "../../../../test/support/test-tls.ts"
import { MailerSmtp } from "../../src/Mail.ts"

const FROM = "\"Wasl CRM\" <crm@wasl.test>"
const OWNER = "owner@mail.test"
const HOOK_URL = "https://hooks.example.test/in"
const NOTICE_TEXT = [
  `The webhook ${HOOK_URL} was switched off: 3 deliveries in a row failed after using all their attempts.`,
  "",
  "No events are sent to it until it is activated again. Once the endpoint answers, reactivate it with",
  "PUT /api/account/webhooks/41/activate and the body {\"is_active\": true}."
].join("\n")

const mailerAt = (url: string, options: { readonly from?: string; readonly caFile?: string | undefined } = {}) =>
  MailerSmtp({ url, from: options.from ?? FROM, caFile: "caFile" in options ? options.caFile : TEST_CA_FILE, timeoutMillis: 5_000 })

/** A local SMTP server for the duration of `use`. */
const withSmtpServer = <A, E, R>(options: SmtpServerOptions, use: (server: TestSmtpServer) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.promise(() => startSmtpServer(options)),
    use,
    (server) => Effect.promise(() => server.close())
  )

/** Sends one mail through `layer`; answers how it ended. */
const sendThrough = (layer: Layer.Layer<Mailer>, mail: { to: string; subject: string; text: string }) =>
  Effect.exit(Mailer.use((mailer) => mailer.send(mail)).pipe(Effect.provide(layer)))

/** A port on 127.0.0.1 that nothing listens on (taken and released). */
const closedPort = Effect.promise(() =>
  new Promise<number>((resolve) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
)

/** An in-memory Wasl whose account owner is told (and queued a mail) that webhook 41 was switched off. */
const noticeQueued = Effect.gen(function*() {
  const services = yield* Layer.build(WaslMemory.layer({ secretKey: new Uint8Array(32).fill(7) }))
  const owner = yield* bootstrapAccount({
    account: "Mail",
    email: OWNER,
    password: "a password of some length",
    plan: "business",
    otpCredits: 0
  }).pipe(Effect.provideContext(services))
  yield* notifyWebhookDeactivated(owner.account_id, 41, HOOK_URL).pipe(Effect.provideContext(services))
  /** Runs the mail loop once with `mailer`, logging to `logs`; answers how many mails were sent. */
  const mailLoop = (mailer: Layer.Layer<Mailer>, logs: Array<string> = []) =>
    sendPendingEmails(10).pipe(
      Effect.provide(mailer),
      Effect.provideContext(services),
      Effect.provide(Logger.layer([Logger.map(Logger.formatJson, (line) => void logs.push(line))]))
    )
  return { mailLoop }
})

const addresses = (field: AddressObject | ReadonlyArray<AddressObject> | undefined) =>
  (field === undefined ? [] : Array.isArray(field) ? field : [field as AddressObject]).flatMap((a) => a.value)

describe("MailerSmtp", () => {
  for (const method of ["PLAIN", "LOGIN"] as const) {
    it.live(`the Webhook Deactivated notice arrives whole over STARTTLS, AUTH ${method}`, () =>
      withSmtpServer({ authMethods: [method] }, (server) =>
        Effect.gen(function*() {
          const { mailLoop } = yield* noticeQueued
          assert.strictEqual(yield* mailLoop(mailerAt(server.url())), 1)
          const [mail, ...more] = server.received()
          assert.deepStrictEqual(more, [])
          assert.deepStrictEqual(mail!.envelope, { from: "crm@wasl.test", to: [OWNER] })
          assert.isTrue(mail!.secure)
          assert.strictEqual(mail!.authMethod, method)
          assert.strictEqual(mail!.user, server.user)
          assert.deepStrictEqual(addresses(mail!.parsed.from), [{ address: "crm@wasl.test", name: "Wasl CRM" }])
          assert.deepStrictEqual(addresses(mail!.parsed.to), [{ address: OWNER, name: "" }])
          assert.strictEqual(mail!.parsed.subject, "Webhook deactivated")
          assert.strictEqual(mail!.parsed.text?.replace(/\n$/, ""), NOTICE_TEXT)
          assert.instanceOf(mail!.parsed.date, Date)
          assert.isString(mail!.parsed.messageId)
          // Sent once: a second run finds nothing queued.
          assert.strictEqual(yield* mailLoop(mailerAt(server.url())), 0)
          assert.strictEqual(server.received().length, 1)
        })), { timeout: 30_000 })
  }

  it.live("UTF-8 arrives as written (Arabic sender name, subject and text); a line break in the subject adds no header", () =>
    withSmtpServer({}, (server) =>
      Effect.gen(function*() {
        const subject = "تم إيقاف الويب هوك"
        const text = [
          "تم إيقاف الويب هوك https://hooks.example.test/in بعد ثلاث محاولات فاشلة.",
          ".a line that starts with a dot",
          "أعد تفعيله عندما يجيب العنوان. ".repeat(60)
        ].join("\n")
        const utf8 = yield* sendThrough(mailerAt(server.url(), { from: "\"وصل\" <crm@wasl.test>" }), { to: OWNER, subject, text })
        assert.isTrue(Exit.isSuccess(utf8), String(utf8))
        const injected = yield* sendThrough(mailerAt(server.url()), {
          to: OWNER,
          subject: "Hello\r\nBcc: spy@evil.test",
          text: "hi"
        })
        assert.isTrue(Exit.isSuccess(injected), String(injected))
        const [arabic, hello] = server.received()
        assert.deepStrictEqual(addresses(arabic!.parsed.from), [{ address: "crm@wasl.test", name: "وصل" }])
        assert.strictEqual(arabic!.parsed.subject, subject)
        assert.strictEqual(arabic!.parsed.text?.replace(/\n$/, ""), text)
        assert.deepStrictEqual(hello!.envelope.to, [OWNER])
        assert.isFalse(hello!.parsed.headers.has("bcc"))
        assert.notInclude(hello!.parsed.subject ?? "", "\n")
      })), { timeout: 30_000 })

  it.live("smtps:// speaks TLS from the first byte", () =>
    withSmtpServer({ implicitTls: true }, (server) =>
      Effect.gen(function*() {
        assert.match(server.url(), /^smtps:/)
        const exit = yield* sendThrough(mailerAt(server.url()), { to: OWNER, subject: "Implicit TLS", text: "hello" })
        assert.isTrue(Exit.isSuccess(exit), String(exit))
        const [mail] = server.received()
        assert.isTrue(mail!.secure)
        assert.strictEqual(mail!.parsed.subject, "Implicit TLS")
      })), { timeout: 30_000 })

  it.live("a wrong password and an unreachable server: logged as why the mail was not sent, never the password; a later run sends it", () =>
    // A careless server that quotes the password it refused: the log must still not show it.
    withSmtpServer({ authRefusal: (password) => `Invalid login, password ${password} refused` }, (server) =>
      Effect.gen(function*() {
        const { mailLoop } = yield* noticeQueued
        const wrong = "wrong-Pa55word"
        const logs: Array<string> = []
        assert.strictEqual(yield* mailLoop(mailerAt(server.url({ password: wrong })), logs), 0)
        assert.deepStrictEqual(server.authAttempts().map((a) => [a.accepted, a.secure]), [[false, true]])
        const port = yield* closedPort
        assert.strictEqual(yield* mailLoop(mailerAt(`smtp://${encodeURIComponent(server.user)}:${wrong}@localhost:${port}`), logs), 0)
        assert.deepStrictEqual(server.received(), [])

        const warnings = logs.map((line) => JSON.parse(line)).filter((entry) => entry.message === "mail not sent")
        assert.strictEqual(warnings.length, 2)
        assert.strictEqual(warnings[0].level, "WARN")
        assert.match(warnings[0].annotations.error, /^SMTP authentication refused: .*535 Invalid login, password \*\*\* refused$/)
        assert.match(warnings[1].annotations.error, /^SMTP server unreachable: .*ECONNREFUSED/)
        for (const line of logs) {
          for (const secret of [wrong, server.password, encodeURIComponent(server.password)]) assert.notInclude(line, secret)
        }

        assert.strictEqual(yield* mailLoop(mailerAt(server.url())), 1)
        assert.strictEqual(server.received().length, 1)
        assert.strictEqual(server.received()[0]!.parsed.subject, "Webhook deactivated")
      })), { timeout: 30_000 })

  it.live("credentials are never sent over a connection without TLS", () =>
    withSmtpServer({ startTls: false }, (server) =>
      Effect.gen(function*() {
        const exit = yield* sendThrough(mailerAt(server.url()), { to: OWNER, subject: "no", text: "no" })
        assert.isTrue(Exit.isFailure(exit))
        assert.include(String(exit), "SMTP TLS failed")
        assert.deepStrictEqual(server.authAttempts(), [])
        assert.deepStrictEqual(server.received(), [])
      })), { timeout: 30_000 })

  it.live("a certificate its CAs do not vouch for is refused", () =>
    withSmtpServer({}, (server) =>
      Effect.gen(function*() {
        const exit = yield* sendThrough(mailerAt(server.url(), { caFile: undefined }), { to: OWNER, subject: "no", text: "no" })
        assert.isTrue(Exit.isFailure(exit))
        assert.include(String(exit), "certificate")
        assert.deepStrictEqual(server.authAttempts(), [])
        assert.deepStrictEqual(server.received(), [])
      })), { timeout: 30_000 })

  it.effect("a URL that is not smtp:// or smtps:// fails each send, saying so without quoting it", () =>
    Effect.gen(function*() {
      for (const [url, reason] of [
        ["http://wasl:hunter2@mail.example.test", "WASL_SMTP_URL: expected smtp://[user:pass@]host[:port] or smtps://..., received a http:// URL"],
        ["not a url hunter2", "received something that is not a URL"]
      ] as const) {
        const exit = yield* sendThrough(mailerAt(url), { to: OWNER, subject: "no", text: "no" })
        assert.isTrue(Exit.isFailure(exit))
        assert.include(String(exit), "MailError")
        assert.include(String(exit), reason)
        assert.notInclude(String(exit), "hunter2")
      }
    }))
})
