/** `MailerJsonLines`: mail to a file. */
import { MailError, Mailer } from "@wasl/core/Mail"
import { DateTime, Effect, Layer } from "effect"
import { appendFile, mkdir } from "node:fs/promises"
import { dirname } from "node:path"

/**
 * `Mailer` without an SMTP server: each mail is appended as one JSON line
 * `{ to, subject, text, sent_at }` to the file at `path` (`WASL_MAIL_OUTBOX`, default under the
 * data directory), created (mode 0600) with its directory when missing. Fails with `MailError`
 * when the file cannot be written.
 */
export const MailerJsonLines = (path: string): Layer.Layer<Mailer> =>
  Layer.succeed(
    Mailer,
    Mailer.of({
      send: (mail) =>
        Effect.gen(function*() {
          const now = yield* DateTime.now
          const line = JSON.stringify({ to: mail.to, subject: mail.subject, text: mail.text, sent_at: DateTime.formatIso(now) })
          yield* Effect.tryPromise({
            try: async () => {
              await mkdir(dirname(path), { recursive: true })
              await appendFile(path, line + "\n", { encoding: "utf8", mode: 0o600 })
            },
            catch: (cause) => new MailError({ message: `cannot append to the mail outbox: ${String(cause)}` })
          })
        })
    })
  )
