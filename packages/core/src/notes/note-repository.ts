/**
 * The notes of records (decisions §5), per account, kind and record (ARCHITECTURE rule 8: a note
 * of another account, or of another record, is simply not found). Lists are newest first
 * (`created_at`, then `_id`, both descending), so pages are stable while the data is unchanged.
 * Deleting a record deletes its notes (RecordRepository.delete).
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { ObjectKind } from "../auth/permission.ts"
import type { PageParams } from "../records/pagination.ts"
import type { Note } from "./note.ts"

export interface NoteScope {
  readonly accountId: number
  readonly kind: ObjectKind
  readonly recordId: string
}

export interface NoteRef extends NoteScope {
  readonly noteId: string
}

export interface NotePage {
  readonly rows: ReadonlyArray<Note>
  readonly total: number
}

export class NoteRepository extends Context.Service<NoteRepository, {
  readonly list: (scope: NoteScope, page: PageParams) => Effect.Effect<NotePage>
  readonly get: (ref: NoteRef) => Effect.Effect<Option.Option<Note>>
  readonly insert: (note: Note) => Effect.Effect<void>
  /** Sets the body and updated_at; `None` when there is no such note. */
  readonly update: (ref: NoteRef, body: string, at: DateTime.Utc) => Effect.Effect<Option.Option<Note>>
  /** Removes the note; false when there was none. */
  readonly delete: (ref: NoteRef) => Effect.Effect<boolean>
}>()("@wasl/core/NoteRepository") {}
