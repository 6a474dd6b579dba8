import { type Mail, Mailer } from "@wasl/core"
import { Context, Effect, Layer } from "effect"

/** The mails `MailerMemory` sent, oldest first: what a test reads instead of an inbox. */
export class MemoryMailbox extends Context.Service<MemoryMailbox, {
  readonly sent: Effect.Effect<ReadonlyArray<Mail>>
  /** Empties the mailbox. */
  readonly clear: Effect.Effect<void>
}>()("@wasl/adapters/MemoryMailbox") {}

/**
 * `Mailer` without a server: every mail is kept, in order, and readable through `MemoryMailbox`
 * (this layer provides both). Sending never fails.
 */
export const MailerMemory: Layer.Layer<Mailer | MemoryMailbox> = Layer.effectContext(Effect.sync(() => {
  const mails: Array<Mail> = []
  return Context.make(Mailer, Mailer.of({ send: (mail) => Effect.sync(() => void mails.push({ ...mail })) })).pipe(
    Context.add(MemoryMailbox, MemoryMailbox.of({
      sent: Effect.sync(() => [...mails]),
      clear: Effect.sync(() => void mails.splice(0))
    }))
  )
}))
