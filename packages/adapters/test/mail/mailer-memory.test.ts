/** `MailerMemory`: every mail kept, in order, a copy of what was sent; `MemoryMailbox` reads and clears them. */
import { assert, describe, it } from "@effect/vitest"
import { type Mail, Mailer } from "@wasl/core/Mail"
import { Effect } from "effect"
import { MailerMemory, MemoryMailbox } from "../../src/memory/index.ts"

describe("MailerMemory", () => {
  it.effect("keeps the mails sent, oldest first, until cleared", () =>
    Effect.gen(function*() {
      const mailer = yield* Mailer
      const mailbox = yield* MemoryMailbox
      assert.deepStrictEqual(yield* mailbox.sent, [])
      const first: Mail = { to: "a@example.com", subject: "One", text: "first" }
      const second: Mail = { to: "b@example.com", subject: "Two", text: "second" }
      yield* mailer.send(first)
      yield* mailer.send(second)
      assert.deepStrictEqual(yield* mailbox.sent, [first, second])
      yield* mailbox.clear
      assert.deepStrictEqual(yield* mailbox.sent, [])
    }).pipe(Effect.provide(MailerMemory)))
})
