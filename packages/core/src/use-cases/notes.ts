/**
 * Notes of records, for every kind: list (paginated, newest first), create,
 * update, delete. Reading needs `<kind>-show`, writing `<kind>-update` (a note changes what the
 * record shows). The record must be the account's (404 otherwise, before the body is looked at),
 * and so must the note, on that record. Each write queues its `<kind>-note-created|updated|deleted`
 * event (object key `<kind>_note`, payload the note) in the same transaction.
 */
import { DateTime, Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../records/object-kind.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, NotFound, type ValidationFailed } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import { type Note, noteJson, type NoteJson, validateNoteBody } from "../notes/note.ts"
import { NoteRepository, type NoteRef, type NoteScope } from "../notes/note-repository.ts"
import { type Page, parsePageParams } from "../records/pagination.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import type { RecordRepository } from "../records/record-repository.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { appendEvent, customOf, findRecord, isRecordId, orNotFound } from "./record-lookup.ts"

/** The record must be the account's: 404 otherwise. */
const recordScope = (principal: Principal, kind: ObjectKind, recordId: string) =>
  Effect.gen(function*() {
    const custom = yield* customOf(principal.accountId, kind)
    yield* findRecord(principal.accountId, kind, recordId, custom)
    return { accountId: principal.accountId, kind, recordId } satisfies NoteScope
  })

const noteRef = (scope: NoteScope, noteId: string) =>
  isRecordId(noteId) ? Effect.succeed({ ...scope, noteId } satisfies NoteRef) : Effect.fail(new NotFound())

/**
 * `GET /api/{kind}/{_id}/notes`: one page (`page`, `per_page` of `query`) of the record's notes,
 * newest first, and their total. Needs `<kind>-show`. Fails {@link Forbidden} without it,
 * {@link NotFound} for a record the account does not have, {@link ValidationFailed} for a bad
 * `page` or `per_page`.
 */
export const listNotes: (
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  query: ListQueryInput
) => Effect.Effect<
  Page<NoteJson>,
  Forbidden | NotFound | ValidationFailed,
  NoteRepository | PropertyRepository | RecordRepository
> = Effect.fn("listNotes")(function*(
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  query: ListQueryInput
) {
  yield* authorize(principal, `${kind}-show`)
  const scope = yield* recordScope(principal, kind, recordId)
  const params = yield* parsePageParams(query)
  const page = yield* NoteRepository.use((repo) => repo.list(scope, params))
  return { items: page.rows.map(noteJson), total: page.total, ...params } satisfies Page<NoteJson>
})

/**
 * `POST /api/{kind}/{_id}/notes` `{ body }`: adds a note by the caller to the record, with its
 * `<kind>-note-created` event in the same transaction. Needs `<kind>-update` (a note changes what
 * the record shows). Answers the note. Fails {@link Forbidden} without the permission,
 * {@link NotFound} for a record the account does not have (before the body is looked at),
 * {@link ValidationFailed} on `body` (required, a string of at most 65535 characters).
 */
export const createNote: (
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  input: unknown
) => Effect.Effect<
  NoteJson,
  Forbidden | NotFound | ValidationFailed,
  NoteRepository | Outbox | PropertyRepository | RecordRepository | SecureRandom.SecureRandom | Transactor
> = Effect.fn("createNote")(function*(
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  input: unknown
) {
  yield* authorize(principal, `${kind}-update`)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const scope = yield* recordScope(principal, kind, recordId)
    const body = yield* validateNoteBody(input)
    const now = yield* DateTime.now
    const note: Note = {
      _id: yield* newRecordId,
      account_id: scope.accountId,
      object_type: kind,
      record_id: recordId,
      body,
      made_by: principal.userId,
      created_at: now,
      updated_at: now
    }
    yield* NoteRepository.use((repo) => repo.insert(note))
    const json = noteJson(note)
    yield* appendEvent(scope.accountId, kind, "note", "created", json)
    return json
  }))
})

/**
 * `PUT /api/{kind}/{_id}/notes/{note_id}` `{ body }`: replaces the note's body, with its
 * `<kind>-note-updated` event in the same transaction. Needs `<kind>-update`. Answers the note.
 * Fails {@link Forbidden}, {@link NotFound} for a record or note the account does not have (the
 * note must be of that record), {@link ValidationFailed} on `body`.
 */
export const updateNote: (
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  noteId: string,
  input: unknown
) => Effect.Effect<
  NoteJson,
  Forbidden | NotFound | ValidationFailed,
  NoteRepository | Outbox | PropertyRepository | RecordRepository | Transactor
> = Effect.fn("updateNote")(function*(
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  noteId: string,
  input: unknown
) {
  yield* authorize(principal, `${kind}-update`)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const ref = yield* noteRef(yield* recordScope(principal, kind, recordId), noteId)
    const notes = yield* NoteRepository
    yield* orNotFound(yield* notes.get(ref))
    const body = yield* validateNoteBody(input)
    const updated = yield* orNotFound(yield* notes.update(ref, body, yield* DateTime.now))
    const json = noteJson(updated)
    yield* appendEvent(ref.accountId, kind, "note", "updated", json)
    return json
  }))
})

/**
 * `DELETE /api/{kind}/{_id}/notes/{note_id}`: removes the note, with its `<kind>-note-deleted`
 * event in the same transaction. Needs `<kind>-update`. Answers the note as it was. Fails
 * {@link Forbidden} or {@link NotFound} (record or note).
 */
export const deleteNote: (
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  noteId: string
) => Effect.Effect<
  NoteJson,
  Forbidden | NotFound,
  NoteRepository | Outbox | PropertyRepository | RecordRepository | Transactor
> = Effect.fn("deleteNote")(function*(
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  noteId: string
) {
  yield* authorize(principal, `${kind}-update`)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const ref = yield* noteRef(yield* recordScope(principal, kind, recordId), noteId)
    const notes = yield* NoteRepository
    const current = yield* orNotFound(yield* notes.get(ref))
    if (!(yield* notes.delete(ref))) return yield* new NotFound()
    const json = noteJson(current)
    yield* appendEvent(ref.accountId, kind, "note", "deleted", json)
    return json
  }))
})
