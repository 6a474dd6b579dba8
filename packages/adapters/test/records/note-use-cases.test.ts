/**
 * The note use-cases over memory, PGlite and PostgreSQL: create, list newest first
 * in pages, update, delete, with their `<kind>-note-*` events; body validation; the record and the
 * note must be the account's (404); `<kind>-show` to read, `<kind>-update` to write.
 */
import { assert, describe, layer } from "@effect/vitest"
import { type Permission, type Principal } from "@wasl/core/Auth"
import { createNote, deleteNote, listNotes, NoteRepository, updateNote } from "@wasl/core/Notes"
import { createRecord, deleteRecord } from "@wasl/core/Records"
import { Effect } from "effect"
import { atTime } from "../../src/testing/record-contract-support.ts"
import { claimEvents, idOf, newPrincipal, USE_CASE_VARIANTS } from "./use-case-support.ts"

describe.each(USE_CASE_VARIANTS)("note use-cases on $name", ({ enabled, layer: services }) => {
  describe.runIf(enabled)("", () => {
    layer(services, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
      it.effect("create, list newest first in pages, update, delete, each with its event", () =>
        Effect.gen(function*() {
          const principal = yield* newPrincipal()
          const contact = idOf(yield* createRecord(principal, "contact", { firstname: "Noted" }))
          yield* claimEvents(principal.accountId)

          const first = yield* atTime("2031-02-03T04:05:06.789Z", createNote(principal, "contact", contact, { body: "  first  " }))
          assert.deepStrictEqual(first, {
            _id: first._id,
            body: "first",
            object_type: "contact",
            record_id: contact,
            account_id: principal.accountId,
            made_by: principal.userId,
            created_at: "2031-02-03T04:05:06.789000Z",
            updated_at: "2031-02-03T04:05:06.789000Z"
          })
          const second = yield* atTime("2031-02-03T04:05:07.000Z", createNote(principal, "contact", contact, { body: "second" }))
          const page1 = yield* listNotes(principal, "contact", contact, { per_page: "1" })
          assert.deepStrictEqual(page1, { items: [second], total: 2, page: 1, perPage: 1 })
          const page2 = yield* listNotes(principal, "contact", contact, { per_page: "1", page: "2" })
          assert.deepStrictEqual(page2.items, [first])

          const updated = yield* atTime("2031-02-04T00:00:00.000Z", updateNote(principal, "contact", contact, first._id, { body: "edited" }))
          assert.deepStrictEqual(updated, { ...first, body: "edited", updated_at: "2031-02-04T00:00:00.000000Z" })
          assert.deepStrictEqual(yield* deleteNote(principal, "contact", contact, first._id), updated)
          assert.deepStrictEqual((yield* listNotes(principal, "contact", contact, {})).items, [second])
          const events = yield* claimEvents(principal.accountId)
          assert.deepStrictEqual(events, [
            { name: "contact-note-created", payload: first },
            { name: "contact-note-created", payload: second },
            { name: "contact-note-updated", payload: updated },
            { name: "contact-note-deleted", payload: updated }
          ])
        }))

      it.effect("body validation; the record and the note must be the account's: 404 otherwise", () =>
        Effect.gen(function*() {
          const owner = yield* newPrincipal()
          const other = yield* newPrincipal()
          const deal = idOf(yield* createRecord(owner, "deal", { deal_name: "N" }))
          const otherDeal = idOf(yield* createRecord(owner, "deal", { deal_name: "M" }))
          const missing = yield* Effect.flip(createNote(owner, "deal", deal, {}))
          assert.strictEqual(missing._tag, "ValidationFailed")
          const note = yield* createNote(owner, "deal", deal, { body: "mine" })
          yield* claimEvents(owner.accountId)
          const failures = yield* Effect.all([
            Effect.flip(updateNote(owner, "deal", otherDeal, note._id, { body: "moved?" })),
            Effect.flip(updateNote(owner, "ticket", deal, note._id, { body: "moved?" })),
            Effect.flip(updateNote(owner, "deal", deal, "not-an-id", { body: "x" })),
            Effect.flip(listNotes(other, "deal", deal, {})),
            Effect.flip(deleteNote(other, "deal", deal, note._id)),
            Effect.flip(createNote(owner, "deal", "0123456789abcdef01234567", { body: "x" }))
          ])
          assert.deepStrictEqual(failures.map((e) => e._tag), Array(6).fill("NotFound"))
          assert.deepStrictEqual((yield* listNotes(owner, "deal", deal, {})).items, [note])
          assert.deepStrictEqual(yield* claimEvents(owner.accountId), [])
        }))

      it.effect("reading needs <kind>-show, writing <kind>-update; deleting the record deletes its notes", () =>
        Effect.gen(function*() {
          const admin = yield* newPrincipal()
          const deal = idOf(yield* createRecord(admin, "deal", { deal_name: "P" }))
          const note = yield* createNote(admin, "deal", deal, { body: "kept?" })
          const reader: Principal = { ...admin, permissions: new Set<Permission>(["deal-show"]) }
          assert.deepStrictEqual((yield* listNotes(reader, "deal", deal, {})).total, 1)
          assert.strictEqual((yield* Effect.flip(createNote(reader, "deal", deal, { body: "x" })))._tag, "Forbidden")
          assert.strictEqual((yield* Effect.flip(deleteNote(reader, "deal", deal, note._id)))._tag, "Forbidden")
          const writer: Principal = { ...admin, permissions: new Set<Permission>(["deal-update"]) }
          assert.strictEqual((yield* Effect.flip(listNotes(writer, "deal", deal, {})))._tag, "Forbidden")
          yield* deleteRecord(admin, "deal", deal)
          const left = yield* NoteRepository.use((notes) =>
            notes.list({ accountId: admin.accountId, kind: "deal", recordId: deal }, { page: 1, perPage: 15 })
          )
          assert.strictEqual(left.total, 0)
        }))
    })
  })
})
