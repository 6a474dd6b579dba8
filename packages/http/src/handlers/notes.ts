import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { createNote, deleteNote, listNotes, updateNote } from "@wasl/core/Notes"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { CREATED, DELETED, MODIFIED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `notes` group: the notes of a record. */
export const NoteHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "notes">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "notes", (handlers) =>
  handlers
    .handle("list", ({ params }) =>
      Effect.gen(function*() {
        const request = yield* listRequest
        const page = yield* domain(listNotes(yield* CurrentPrincipal, params.kind, params.id, request.input))
        return paginated(request, page)
      }))
    .handle("create", ({ params, payload }) =>
      Effect.gen(function*() {
        const data = yield* domain(createNote(yield* CurrentPrincipal, params.kind, params.id, payload))
        return { data, message: CREATED }
      }))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const data = yield* domain(updateNote(principal, params.kind, params.id, params.noteId, payload))
        return { data, message: MODIFIED }
      }))
    .handle("delete", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deleteNote(yield* CurrentPrincipal, params.kind, params.id, params.noteId))
        return { message: DELETED, data: [] as const }
      })))
