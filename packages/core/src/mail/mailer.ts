/**
 * Outgoing mail (decisions §8): an SMTP server when one is configured, otherwise JSON lines in a
 * file. Adapters: `MailerSmtp`, `MailerJsonLines`.
 */
import { Context, type Effect, Schema } from "effect"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
}

export class MailError extends Schema.TaggedError<MailError>()("MailError", { message: Schema.String }) {}

export class Mailer extends Context.Service<Mailer, {
  readonly send: (mail: Mail) => Effect.Effect<void, MailError>
}>()("@wasl/core/Mailer") {}
