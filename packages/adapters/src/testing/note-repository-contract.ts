/** The contract suite of `NoteRepository` (documented on `noteRepositoryContract`). */
import { assert, layer } from "@effect/vitest"
import { type AccountRepository, UserRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { type Note, NoteRepository, type NoteRef } from "@wasl/core/Notes"
import { type ObjectKind } from "@wasl/core/Records"
import { Cause, DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"
import { freshId, freshIds, newAccountId } from "./record-contract-support.ts"

/** What the layer under `noteRepositoryContract` provides. */
export type NoteRepositoryContractServices = NoteRepository | AccountRepository | UserRepository | Transactor

class Boom extends Error {}

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
const T1 = DateTime.makeUnsafe("2031-02-03T04:05:07.123Z")
const T2 = DateTime.makeUnsafe("2031-02-04T00:00:00.000Z")

let sequence = 0

/** A user of the account; its id. */
const newAuthor = (accountId: number) =>
  Effect.gen(function*() {
    const users = yield* UserRepository
    const email = `notes.${Date.now().toString(36)}.${(sequence++).toString(36)}@example.com`
    const user = yield* Effect.orDie(users.create({ email, passwordHash: "x", firstname: "A", lastname: "B" }))
    yield* users.addMembership(accountId, user.id)
    return user.id
  })

const note = (accountId: number, kind: ObjectKind, recordId: string, overrides: Partial<Note> = {}): Note => ({
  _id: freshId(),
  account_id: accountId,
  object_type: kind,
  record_id: recordId,
  body: "A note\nwith two lines",
  made_by: null,
  created_at: T0,
  updated_at: T0,
  ...overrides
})

const refOf = (n: Note): NoteRef => ({ accountId: n.account_id, kind: n.object_type, recordId: n.record_id, noteId: n._id })

const comparable = (n: Note) => ({ ...n, created_at: DateTime.formatIso(n.created_at), updated_at: DateTime.formatIso(n.updated_at) })

/**
 * The contract of `NoteRepository` over every implementation (memory, PGlite, PostgreSQL, or
 * yours): notes are stored as given; a record's notes list newest first (`created_at`, then `_id`,
 * both descending) in pages with the exact total; get, update and delete reach a note only through
 * its account, kind and record; a taken note id is a defect; a failed transaction leaves none of
 * its writes.
 *
 * Each test makes its own accounts, so the suite can share a database with others.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `NoteRepository` (under test), `AccountRepository` and
 *   `UserRepository` (to make accounts and authors) and `Transactor`.
 */
export const noteRepositoryContract = <E>(name: string, implementation: Layer.Layer<NoteRepositoryContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("stores a note as given and reads it back", () =>
      Effect.gen(function*() {
        const notes = yield* NoteRepository
        const accountId = yield* newAccountId
        const written = note(accountId, "ticket", freshId(), { made_by: yield* newAuthor(accountId), updated_at: T1 })
        yield* notes.insert(written)
        assert.deepStrictEqual(comparable(Option.getOrThrow(yield* notes.get(refOf(written)))), comparable(written))
      }))

    it.effect("lists a record's notes newest first, ties by _id, in pages with the exact total", () =>
      Effect.gen(function*() {
        const notes = yield* NoteRepository
        const accountId = yield* newAccountId
        const other = yield* newAccountId
        const recordId = freshId()
        const [a, b] = freshIds(2)
        const written = [
          note(accountId, "deal", recordId, { created_at: T0 }),
          note(accountId, "deal", recordId, { _id: a!, created_at: T1 }),
          note(accountId, "deal", recordId, { _id: b!, created_at: T1 }),
          note(accountId, "deal", recordId, { created_at: T2, updated_at: T2 })
        ]
        for (const n of written) yield* notes.insert(n)
        // Notes of another record, of another kind with the record's id, of another account.
        yield* notes.insert(note(accountId, "deal", freshId(), { created_at: T2 }))
        yield* notes.insert(note(accountId, "contact", recordId, { created_at: T2 }))
        yield* notes.insert(note(other, "deal", recordId, { created_at: T2 }))
        const expected = [written[3]!._id, b!, a!, written[0]!._id]
        const scope = { accountId, kind: "deal" as const, recordId }
        const seen: Array<string> = []
        for (const page of [1, 2, 3]) {
          const result = yield* notes.list(scope, { page, perPage: 2 })
          assert.strictEqual(result.total, 4)
          assert.strictEqual(result.rows.length, page < 3 ? 2 : 0)
          seen.push(...result.rows.map((n) => n._id))
        }
        assert.deepStrictEqual(seen, expected)
        assert.deepStrictEqual((yield* notes.list({ ...scope, recordId: freshId() }, { page: 1, perPage: 15 })).total, 0)
      }))

    it.effect("get, update and delete reach a note only through its account, kind and record", () =>
      Effect.gen(function*() {
        const notes = yield* NoteRepository
        const accountId = yield* newAccountId
        const other = yield* newAccountId
        const written = note(accountId, "deal", freshId())
        yield* notes.insert(written)
        const ref = refOf(written)
        const wrong: ReadonlyArray<NoteRef> = [
          { ...ref, accountId: other },
          { ...ref, kind: "contact" },
          { ...ref, recordId: freshId() },
          { ...ref, noteId: freshId() }
        ]
        for (const w of wrong) {
          assert.isTrue(Option.isNone(yield* notes.get(w)), JSON.stringify(w))
          assert.isTrue(Option.isNone(yield* notes.update(w, "changed", T2)), JSON.stringify(w))
          assert.isFalse(yield* notes.delete(w), JSON.stringify(w))
        }
        const updated = Option.getOrThrow(yield* notes.update(ref, "changed", T2))
        const expected = comparable({ ...written, body: "changed", updated_at: T2 })
        assert.deepStrictEqual(comparable(updated), expected)
        assert.deepStrictEqual(comparable(Option.getOrThrow(yield* notes.get(ref))), expected)
        assert.isTrue(yield* notes.delete(ref))
        assert.isFalse(yield* notes.delete(ref))
        assert.isTrue(Option.isNone(yield* notes.get(ref)))
      }))

    it.effect("a note id is unique in its account: a taken one is a defect", () =>
      Effect.gen(function*() {
        const notes = yield* NoteRepository
        const accountId = yield* newAccountId
        const written = note(accountId, "deal", freshId())
        yield* notes.insert(written)
        const exit = yield* Effect.exit(notes.insert({ ...written, record_id: freshId(), body: "again" }))
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
        assert.strictEqual(Option.getOrThrow(yield* notes.get(refOf(written))).body, written.body)
        // The same id in another account is another note.
        yield* notes.insert({ ...written, account_id: yield* newAccountId })
      }))

    it.effect("a failed transaction leaves none of its notes, updates or deletes", () =>
      Effect.gen(function*() {
        const notes = yield* NoteRepository
        const transactor = yield* Transactor
        const accountId = yield* newAccountId
        const recordId = freshId()
        const kept = note(accountId, "deal", recordId)
        const gone = note(accountId, "deal", recordId)
        yield* notes.insert(kept)
        yield* notes.insert(gone)
        const exit = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* notes.insert(note(accountId, "deal", recordId))
          yield* notes.update(refOf(kept), "changed", T2)
          yield* notes.delete(refOf(gone))
          return yield* Effect.die(new Boom("defect"))
        })))
        assert.isTrue(Exit.isFailure(exit) && Cause.squash(exit.cause) instanceof Boom)
        const listed = yield* notes.list({ accountId, kind: "deal", recordId }, { page: 1, perPage: 15 })
        assert.deepStrictEqual(listed.rows.map((n) => n._id).sort(), [kept._id, gone._id].sort())
        assert.strictEqual(Option.getOrThrow(yield* notes.get(refOf(kept))).body, kept.body)
      }))
  })
