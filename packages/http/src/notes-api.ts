/** Notes of records, for every kind. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NoteJson } from "@wasl/core/Notes"
import { RecordId } from "@wasl/core/Wire"
import { KindFromPath, type RecordParams, recordParams } from "./kind-params.ts"
import { DeletedAnswer } from "./deleted-answer.ts"
import { type AuthenticatedGroup, commonErrors, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { withRequestExamples } from "./request-examples-openapi.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

/** The body of a note create or update: `{ body: string }`, validated by the use-case with Laravel's messages. */
export const NoteBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "{ body: string }"
})
const noteParams = { kind: KindFromPath, id: RecordId, noteId: RecordId }

/** The path parameters `:kind/:id/notes/:noteId`, as an endpoint's type carries them. */
export type NoteParams = PathParams<{ kind: typeof KindFromPath; id: typeof RecordId; noteId: typeof RecordId }>

/** `GET /api/:kind/:id/notes`: the record's notes, newest first, paginated. */
export const ListNotesEndpoint: WaslEndpoint<"list", "GET", "/:kind/:id/notes", {
  params: RecordParams; success: Pagination<typeof NoteJson>
}> = HttpApiEndpoint.get("list", "/:kind/:id/notes", {
  params: recordParams,
  success: Pagination(NoteJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "List a record's notes").annotate(
  OpenApi.Description,
  "The record's notes, newest first, one page at a time. Permission <kind>-show (contact-show, deal-show, ...)."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `POST /api/:kind/:id/notes`: adds a note to the record. */
export const CreateNoteEndpoint: WaslEndpoint<"create", "POST", "/:kind/:id/notes", {
  params: RecordParams; payload: typeof NoteBody; success: DataMessageAnswer<typeof NoteJson>
}> = HttpApiEndpoint.post("create", "/:kind/:id/notes", {
  params: recordParams,
  payload: NoteBody,
  success: DataMessageAnswer(NoteJson).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Add a note to a record").annotate(
  OpenApi.Description,
  "Adds a note ({ body }) to the record, made by the caller; fires the <kind>-note-created event. Permission <kind>-update."
).annotate(
  OpenApi.Transform,
  withRequestExamples({ note: { summary: "A note", value: { body: "Called back: wants the annual plan." } } })
)

/** `PUT /api/:kind/:id/notes/:noteId`: replaces the body of one of the record's notes. */
export const UpdateNoteEndpoint: WaslEndpoint<"update", "PUT", "/:kind/:id/notes/:noteId", {
  params: NoteParams; payload: typeof NoteBody; success: DataMessageAnswer<typeof NoteJson>
}> = HttpApiEndpoint.put("update", "/:kind/:id/notes/:noteId", {
  params: noteParams,
  payload: NoteBody,
  success: DataMessageAnswer(NoteJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "Edit a note").annotate(
  OpenApi.Description,
  "Replaces the note's body; fires the <kind>-note-updated event. A note of another record is 404. Permission <kind>-update."
)

/** `DELETE /api/:kind/:id/notes/:noteId`: deletes one of the record's notes. */
export const DeleteNoteEndpoint: WaslEndpoint<"delete", "DELETE", "/:kind/:id/notes/:noteId", {
  params: NoteParams; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("delete", "/:kind/:id/notes/:noteId", {
  params: noteParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a note").annotate(
  OpenApi.Description,
  "Deletes the note; fires the <kind>-note-deleted event. A note of another record is 404. Permission <kind>-update."
)

const NotesGroupBase: AuthenticatedGroup<
  "notes",
  typeof ListNotesEndpoint | typeof CreateNoteEndpoint | typeof UpdateNoteEndpoint | typeof DeleteNoteEndpoint
> = HttpApiGroup.make("notes")
  .add(ListNotesEndpoint)
  .add(CreateNoteEndpoint)
  .add(UpdateNoteEndpoint)
  .add(DeleteNoteEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Notes on a record of any kind: list, add, edit, delete."
  )

/**
 * The notes of a record of any kind (`/api/{kind}/{id}/notes`): list, add, edit, delete. Reading
 * needs the kind's show permission, writing its update permission.
 */
export class NotesGroup extends NotesGroupBase {}
