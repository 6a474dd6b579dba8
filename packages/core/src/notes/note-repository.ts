/**
 * The notes of records, per account, kind and record (a note of another account, or of another
 * record, is simply not found). Lists are newest first (`created_at`, then `_id`, both
 * descending), so pages are stable while the data is unchanged. Deleting a record deletes its
 * notes (RecordRepository.delete).
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { ObjectKind } from "../records/object-kind.ts"
import type { PageParams } from "../records/pagination.ts"
import type { Note } from "./note.ts"

/** The record whose notes are meant. */
export interface NoteScope {
  /** The record's account. */
  readonly accountId: number
  /** The record's kind. */
  readonly kind: ObjectKind
  /** The record's id. */
  readonly recordId: string
}

/** One note of one record. */
export interface NoteRef extends NoteScope {
  /** The note's `_id`. */
  readonly noteId: string
}

/** One page of a record's notes, and how many it has in all. */
export interface NotePage {
  /** The notes of the page, newest first. */
  readonly rows: ReadonlyArray<Note>
  /** The number of notes of the record over all pages. */
  readonly total: number
}

/** What the {@link NoteRepository} port offers (implement this to write an adapter). */
export interface NoteRepositoryShape {
  /** One page of the record's notes, newest first. */
  readonly list: (scope: NoteScope, page: PageParams) => Effect.Effect<NotePage>
  /** The note, or none. */
  readonly get: (ref: NoteRef) => Effect.Effect<Option.Option<Note>>
  /** Stores a new note. */
  readonly insert: (note: Note) => Effect.Effect<void>
  /** Sets the body and updated_at; `None` when there is no such note. */
  readonly update: (ref: NoteRef, body: string, at: DateTime.Utc) => Effect.Effect<Option.Option<Note>>
  /** Removes the note; false when there was none. */
  readonly delete: (ref: NoteRef) => Effect.Effect<boolean>
}

const NoteRepositoryBase: Context.ServiceClass<NoteRepository, "@wasl/core/NoteRepository", NoteRepositoryShape> =
  Context.Service<NoteRepository, NoteRepositoryShape>()("@wasl/core/NoteRepository")

/**
 * The notes of records. Its operations: {@link NoteRepositoryShape}.
 */
export class NoteRepository extends NoteRepositoryBase {}
