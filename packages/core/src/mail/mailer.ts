/**
 * Outgoing mail: an SMTP server when one is configured, otherwise JSON lines in a file. Adapters:
 * `MailerSmtp`, `MailerJsonLines`.
 */
import type { Cause } from "effect"
import { Context, type Effect, Schema } from "effect"

/** A plain-text mail to one recipient. */
export interface Mail {
  /** The recipient's address. */
  readonly to: string
  /** The subject line. */
  readonly subject: string
  /** The plain-text body. */
  readonly text: string
}

const MailErrorBase: Schema.Class<
  MailError,
  Schema.TaggedStruct<"MailError", { readonly message: Schema.String }>,
  Cause.YieldableError
> = Schema.TaggedError<MailError>()("MailError", { message: Schema.String })

/** The mail could not be sent; `message` says why. */
export class MailError extends MailErrorBase {}

/** What the {@link Mailer} port offers (implement this to write an adapter). */
export interface MailerShape {
  /** Sends the mail, or fails with why not. */
  readonly send: (mail: Mail) => Effect.Effect<void, MailError>
}

const MailerBase: Context.ServiceClass<Mailer, "@wasl/core/Mailer", MailerShape> = Context.Service<
  Mailer,
  MailerShape
>()("@wasl/core/Mailer")

/**
 * Sends the mails of notifications (the worker's mail loop). Its operations: {@link MailerShape}.
 */
export class Mailer extends MailerBase {}
