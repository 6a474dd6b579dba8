/**
 * Notes of records in the memory store, the twin of `NoteRepositoryPg`: per account, kind and
 * record; lists newest first (`created_at`, then `_id`, both descending) with the exact total. The
 * table's constraints (an existing account and author, a 24-hex note id unique in its account)
 * are defects here too. A record's notes go with it (record-repository-memory.ts).
 */
import { type Note, NoteRepository, type NoteRef } from "@wasl/core/Notes"
import { pageOffset } from "@wasl/core/Records"
import { DateTime, Effect, HashMap, Layer, Option } from "effect"
import { requireAccount } from "./property-repository-memory.ts"
import { notesOfAccount, notesOfRecord, putNoteRow, removeNoteRow } from "./record-tables.ts"
import { type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

/** Newest first: `created_at`, then `_id`, both descending. */
const newestFirst = (a: Note, b: Note): number =>
  DateTime.toEpochMillis(b.created_at) - DateTime.toEpochMillis(a.created_at) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0)

const find = (state: MemoryState, ref: NoteRef): Note | undefined =>
  Option.match(HashMap.get(notesOfAccount(state.notes, ref.accountId), ref.noteId), {
    onNone: () => undefined,
    onSome: (note) => note.object_type === ref.kind && note.record_id === ref.recordId ? note : undefined
  })

/** Notes of records in the memory store; the twin of `NoteRepositoryPg`. */
export const NoteRepositoryMemory: Layer.Layer<NoteRepository, never, MemoryStore> = Layer.effect(
  NoteRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return NoteRepository.of({
      list: (scope, page) =>
        readStore(store, (state) => {
          const notes = notesOfRecord(state.notes, scope.accountId, scope.kind, scope.recordId).sort(newestFirst)
          const offset = pageOffset(page)
          return { rows: notes.slice(offset, offset + page.perPage), total: notes.length }
        }),
      get: (ref) => readStore(store, (state) => Option.fromNullishOr(find(state, ref))),
      insert: (note) =>
        updateStore(store, (state) => {
          requireAccount(state, note.account_id, "notes")
          if (!/^[0-9a-f]{24}$/.test(note._id)) throw new Error(`notes: id "${note._id}" is not 24 hex`)
          if (note.made_by !== null && !state.users.has(note.made_by)) {
            throw new Error(`insert on table "notes" violates foreign key constraint: user ${note.made_by}`)
          }
          if (HashMap.has(notesOfAccount(state.notes, note.account_id), note._id)) {
            throw new Error(`duplicate key value violates unique constraint "notes_pkey": ${note._id}`)
          }
          return [undefined, { ...state, notes: putNoteRow(state.notes, { ...note }) }] as const
        }),
      update: (ref, body, at) =>
        updateStore(store, (state) => {
          const current = find(state, ref)
          if (current === undefined) return [Option.none(), state] as const
          const note: Note = { ...current, body, updated_at: at }
          return [Option.some(note), { ...state, notes: putNoteRow(state.notes, note) }] as const
        }),
      delete: (ref) =>
        updateStore(store, (state) => {
          if (find(state, ref) === undefined) return [false, state] as const
          return [true, { ...state, notes: removeNoteRow(state.notes, ref.accountId, ref.noteId) }] as const
        })
    })
  })
)
