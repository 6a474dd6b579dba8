/** Notes of records, for every kind (decisions §5). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { NoteJson, ObjectPath, RecordId } from "@wasl/core"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

const Body = Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "{ body: string }" })
const recordParams = { kind: ObjectPath, id: RecordId }
const noteParams = { kind: ObjectPath, id: RecordId, noteId: RecordId }
const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

export class NotesGroup extends HttpApiGroup.make("notes")
  .add(HttpApiEndpoint.get("list", "/:kind/:id/notes", {
    params: recordParams,
    success: Pagination(NoteJson),
    error: errors
  }))
  .add(HttpApiEndpoint.post("create", "/:kind/:id/notes", {
    params: recordParams,
    payload: Body,
    success: Schema.Struct({ data: NoteJson, message: Schema.String }).pipe(HttpApiSchema.status(201)),
    error: errors
  }))
  .add(HttpApiEndpoint.put("update", "/:kind/:id/notes/:noteId", {
    params: noteParams,
    payload: Body,
    success: Schema.Struct({ data: NoteJson, message: Schema.String }),
    error: errors
  }))
  .add(HttpApiEndpoint.delete("delete", "/:kind/:id/notes/:noteId", {
    params: noteParams,
    success: Schema.Struct({ message: Schema.String, data: Schema.Tuple([]) }),
    error: errors
  }))
  .middleware(Authentication)
  .prefix("/api")
{}
