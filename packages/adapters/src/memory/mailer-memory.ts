import { type Mail, Mailer } from "@wasl/core/Mail"
import { Context, Effect, Layer } from "effect"

/** What `MemoryMailbox` offers. */
export interface MemoryMailboxShape {
  /** Every mail sent so far, oldest first. */
  readonly sent: Effect.Effect<ReadonlyArray<Mail>>
  /** Empties the mailbox. */
  readonly clear: Effect.Effect<void>
}

const MemoryMailboxBase: Context.ServiceClass<MemoryMailbox, "@wasl/adapters/MemoryMailbox", MemoryMailboxShape> =
  Context.Service<MemoryMailbox, MemoryMailboxShape>()("@wasl/adapters/MemoryMailbox")

/**
 * The mails `MailerMemory` sent, oldest first: what a test reads instead of an inbox.
 * `WaslMemory.layer` and `MailerMemory` provide it.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { MemoryMailbox } from "@wasl/adapters/memory"
 *
 * const lastSubject = Effect.gen(function*() {
 *   const mails = yield* MemoryMailbox.use((mailbox) => mailbox.sent)
 *   return mails.at(-1)?.subject
 * })
 * ```
 */
export class MemoryMailbox extends MemoryMailboxBase {}

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
