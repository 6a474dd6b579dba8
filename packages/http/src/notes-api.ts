/** Notes of records, for every kind. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NoteJson, ObjectPath, RecordId } from "@wasl/core"
import { type CommonErrors, Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { type RecordParams, recordParams } from "./kind-params.ts"
import { DeletedAnswer } from "./deleted-answer.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

/** The body of a note create or update: `{ body: string }`, validated by the use-case with Laravel's messages. */
export const NoteBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "{ body: string }"
})
const noteParams = { kind: ObjectPath, id: RecordId, noteId: RecordId }
const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

/** `GET /api/:kind/:id/notes`: the record's notes, newest first, paginated. */
export const ListNotesEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "list",
  "GET",
  "/:kind/:id/notes",
  RecordParams,
  never,
  never,
  never,
  Schema.toCodecJson<Pagination<typeof NoteJson>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.get("list", "/:kind/:id/notes", {
  params: recordParams,
  success: Pagination(NoteJson),
  error: errors
}).annotate(
  OpenApi.Description,
  "The record's notes, newest first (page, per_page). Permission <kind>-show (contact-show, deal-show, ...)."
)

/** `POST /api/:kind/:id/notes`: adds a note to the record. */
export const CreateNoteEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "create",
  "POST",
  "/:kind/:id/notes",
  RecordParams,
  never,
  Schema.toCodecJson<typeof NoteBody>,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof NoteJson; readonly message: Schema.String }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.post("create", "/:kind/:id/notes", {
  params: recordParams,
  payload: NoteBody,
  success: Schema.Struct({ data: NoteJson, message: Schema.String }).pipe(HttpApiSchema.status(201)),
  error: errors
}).annotate(
  OpenApi.Description,
  "Adds a note ({ body }) to the record, made by the caller; fires the <kind>-note-created event. Permission <kind>-update."
)

/** `PUT /api/:kind/:id/notes/:noteId`: replaces the body of one of the record's notes. */
export const UpdateNoteEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "update",
  "PUT",
  "/:kind/:id/notes/:noteId",
  Schema.toCodecStringTree<Schema.Struct<{ kind: typeof ObjectPath; id: typeof RecordId; noteId: typeof RecordId }>>,
  never,
  Schema.toCodecJson<typeof NoteBody>,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof NoteJson; readonly message: Schema.String }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.put("update", "/:kind/:id/notes/:noteId", {
  params: noteParams,
  payload: NoteBody,
  success: Schema.Struct({ data: NoteJson, message: Schema.String }),
  error: errors
}).annotate(
  OpenApi.Description,
  "Replaces the note's body; fires the <kind>-note-updated event. A note of another record is 404. Permission <kind>-update."
)

/** `DELETE /api/:kind/:id/notes/:noteId`: deletes one of the record's notes. */
export const DeleteNoteEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "delete",
  "DELETE",
  "/:kind/:id/notes/:noteId",
  Schema.toCodecStringTree<Schema.Struct<{ kind: typeof ObjectPath; id: typeof RecordId; noteId: typeof RecordId }>>,
  never,
  never,
  never,
  Schema.toCodecJson<typeof DeletedAnswer>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.delete("delete", "/:kind/:id/notes/:noteId", {
  params: noteParams,
  success: DeletedAnswer,
  error: errors
}).annotate(
  OpenApi.Description,
  "Deletes the note; fires the <kind>-note-deleted event. A note of another record is 404. Permission <kind>-update."
)

/** @ignore */
export const NotesGroupBase: HttpApiGroup.AddPrefix<
  HttpApiGroup.AddMiddleware<
    HttpApiGroup.HttpApiGroup<
      "notes",
      typeof ListNotesEndpoint | typeof CreateNoteEndpoint | typeof UpdateNoteEndpoint | typeof DeleteNoteEndpoint
    >,
    Authentication
  >,
  "/api"
> = HttpApiGroup.make("notes")
  .add(ListNotesEndpoint)
  .add(CreateNoteEndpoint)
  .add(UpdateNoteEndpoint)
  .add(DeleteNoteEndpoint)
  .middleware(Authentication)
  .prefix("/api")

/**
 * The notes of a record of any kind (`/api/{kind}/{id}/notes`): list, add, edit, delete. Reading
 * needs the kind's show permission, writing its update permission.
 */
export class NotesGroup extends NotesGroupBase {}
