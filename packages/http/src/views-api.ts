/** Saved views of the lists: `/api/{kind}/views`. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { MAX_VIEW_COLUMNS, MAX_VIEW_NAME, ORDER_DIRECTIONS } from "@wasl/core/Records"
import { DeletedAnswer } from "./deleted-answer.ts"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { type KindParams, kindParams, type RecordParams, recordParams } from "./kind-params.ts"
import { Authentication } from "./security.ts"

/** A saved view as the endpoints answer it. */
export const SavedViewView: Schema.Struct<{
  readonly _id: Schema.String
  readonly account_id: Schema.Int
  readonly user_id: Schema.Int
  readonly name: Schema.String
  readonly search: Schema.NullOr<Schema.String>
  readonly order: Schema.NullOr<Schema.String>
  readonly direction: Schema.NullOr<Schema.Literals<typeof ORDER_DIRECTIONS>>
  readonly complex_filters: Schema.$Array<Schema.Unknown>
  readonly columns: Schema.$Array<Schema.String>
  readonly shared: Schema.Boolean
  readonly created_at: Schema.String
  readonly updated_at: Schema.String
}> = Schema.Struct({
  _id: Schema.String,
  account_id: Schema.Int,
  user_id: Schema.Int,
  name: Schema.String,
  search: Schema.NullOr(Schema.String),
  order: Schema.NullOr(Schema.String),
  direction: Schema.NullOr(Schema.Literals(ORDER_DIRECTIONS)),
  complex_filters: Schema.Array(Schema.Unknown),
  columns: Schema.Array(Schema.String),
  shared: Schema.Boolean,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({
  identifier: "SavedView",
  description: "A saved view of a kind's list: its owner (user_id), name, the list's search, order, direction and " +
    "complex_filters (in their JSON form; null or empty: the list's default), the columns shown (empty: the console's " +
    "default ones) and whether the whole account sees it (shared) or only its owner"
})

/** The body of a view's create or update. Validated by the use-case with the list query's messages. */
export const SavedViewBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: `name (required on a create, at most ${MAX_VIEW_NAME} characters); search, order, direction and complex_filters ` +
    "as GET /api/{kind} takes them (complex_filters as a JSON array or its text), refused with the list's messages under the " +
    `same keys; columns: at most ${MAX_VIEW_COLUMNS} distinct property internal_names of the kind (or created_at, updated_at); ` +
    "shared: true or false (default false). On an update a key left out keeps its value."
})

/** `GET /api/:kind/views`. */
export const ListViewsEndpoint: WaslEndpoint<"list", "GET", "/:kind/views", {
  params: KindParams; success: DataAnswer<Schema.$Array<typeof SavedViewView>>
}> = HttpApiEndpoint.get("list", "/:kind/views", {
  params: kindParams,
  success: DataAnswer(Schema.Array(SavedViewView)),
  error: commonErrors
}).annotate(OpenApi.Summary, "List saved views").annotate(
  OpenApi.Description,
  "The kind's views the caller sees: the account's shared ones and the caller's own, oldest first. Permission <kind>-index."
)

/** `POST /api/:kind/views`. */
export const CreateViewEndpoint: WaslEndpoint<"create", "POST", "/:kind/views", {
  params: KindParams; payload: typeof SavedViewBody; success: DataMessageAnswer<typeof SavedViewView>
}> = HttpApiEndpoint.post("create", "/:kind/views", {
  params: kindParams,
  payload: SavedViewBody,
  success: DataMessageAnswer(SavedViewView).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Save a view").annotate(
  OpenApi.Description,
  "Saves a view owned by the caller, private unless shared is true. Permission <kind>-index."
)

/** `GET /api/:kind/views/:id`. */
export const ShowViewEndpoint: WaslEndpoint<"show", "GET", "/:kind/views/:id", {
  params: RecordParams; success: DataAnswer<typeof SavedViewView>
}> = HttpApiEndpoint.get("show", "/:kind/views/:id", {
  params: recordParams,
  success: DataAnswer(SavedViewView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a saved view").annotate(
  OpenApi.Description,
  "One view the caller sees; another member's private view is a 404. Permission <kind>-index."
)

/** `PUT /api/:kind/views/:id`. */
export const UpdateViewEndpoint: WaslEndpoint<"update", "PUT", "/:kind/views/:id", {
  params: RecordParams; payload: typeof SavedViewBody; success: DataMessageAnswer<typeof SavedViewView>
}> = HttpApiEndpoint.put("update", "/:kind/views/:id", {
  params: recordParams,
  payload: SavedViewBody,
  success: DataMessageAnswer(SavedViewView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Update a saved view").annotate(
  OpenApi.Description,
  "Changes the keys the body gives. Permission <kind>-index; another member's shared view also needs property-manage (else 403)."
)

/** `DELETE /api/:kind/views/:id`. */
export const DeleteViewEndpoint: WaslEndpoint<"delete", "DELETE", "/:kind/views/:id", {
  params: RecordParams; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("delete", "/:kind/views/:id", {
  params: recordParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a saved view").annotate(
  OpenApi.Description,
  "Deletes the view; members who opened the kind's list on it (GET /api/me's contacts_view_id, deals_view_id, tickets_view_id) " +
    "then have none. Permissions as for an update."
)

const ViewsGroupBase: AuthenticatedGroup<
  "views",
  | typeof ListViewsEndpoint
  | typeof CreateViewEndpoint
  | typeof ShowViewEndpoint
  | typeof UpdateViewEndpoint
  | typeof DeleteViewEndpoint
> = HttpApiGroup.make("views")
  .add(ListViewsEndpoint)
  .add(CreateViewEndpoint)
  .add(ShowViewEndpoint)
  .add(UpdateViewEndpoint)
  .add(DeleteViewEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Saved views of the lists: a name, the list's search, order, direction and complex_filters, and the columns shown, " +
      "private to the member who saved it or shared with the account. GET /api/{kind}?view=<_id> lists with a view; " +
      "PUT /api/me chooses the view the console opens contacts, deals and tickets on."
  )

/**
 * Saved views of the lists (`/api/{kind}/views`). Every endpoint needs the kind's index
 * permission; changing another member's shared view also needs property-manage.
 */
export class ViewsGroup extends ViewsGroupBase {}
