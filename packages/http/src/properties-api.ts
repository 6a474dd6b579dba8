/** Properties and property groups of every object kind. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { MAX_ENUM_OPTIONS } from "@wasl/core/Records"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { type KindParams, kindParams, type RecordParams, recordParams } from "./kind-params.ts"
import { DeletedAnswer } from "./deleted-answer.ts"
import { PropertyGroupView, PropertyView } from "./property-views.ts"
import { Authentication } from "./security.ts"

/**
 * The body of a property create or update: `type`, `name` ({ ar, en }), `desc?`, `internal_name`
 * (create only: it cannot change), `group_id`, and `enum` for the select types (at most
 * `MAX_ENUM_OPTIONS`). Validated by the use-case with Laravel's messages.
 */
export const PropertyBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: `type, name {ar, en}, desc?, internal_name (create only), group_id, enum (select types, at most ${MAX_ENUM_OPTIONS} options)`
})
/** The body of a property group create or update: `name` ({ ar, en }) and `desc?`. */
export const PropertyGroupBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown)
  .annotate({ description: "name {ar, en}, desc?" })


/** `GET /api/:kind/properties/groups`: the kind's property groups, the built-in one first. */
export const ListPropertyGroupsEndpoint: WaslEndpoint<"listGroups", "GET", "/:kind/properties/groups", {
  params: KindParams; success: DataAnswer<Schema.$Array<typeof PropertyGroupView>>
}> = HttpApiEndpoint.get("listGroups", "/:kind/properties/groups", {
  params: kindParams,
  success: DataAnswer(Schema.Array(PropertyGroupView)),
  error: commonErrors
}).annotate(OpenApi.Summary, "List property groups").annotate(
  OpenApi.Description,
  "The kind's property groups: its built-in group (account_id null) and the account's. Permission <kind>-index or property-manage."
)

/** `POST /api/:kind/properties/groups`: creates a property group of the kind. */
export const CreatePropertyGroupEndpoint: WaslEndpoint<"createGroup", "POST", "/:kind/properties/groups", {
  params: KindParams; payload: typeof PropertyGroupBody; success: DataMessageAnswer<typeof PropertyGroupView>
}> = HttpApiEndpoint.post("createGroup", "/:kind/properties/groups", {
  params: kindParams,
  payload: PropertyGroupBody,
  success: DataMessageAnswer(PropertyGroupView).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Create a property group").annotate(
  OpenApi.Description,
  "Creates a group; its internal_name is the snake_case of name.en (or name.ar), made unique with a numeric suffix. Permission property-manage."
)

/** `GET /api/:kind/properties/groups/:id`: one property group of the kind. */
export const ShowPropertyGroupEndpoint: WaslEndpoint<"showGroup", "GET", "/:kind/properties/groups/:id", {
  params: RecordParams; success: DataAnswer<typeof PropertyGroupView>
}> = HttpApiEndpoint.get("showGroup", "/:kind/properties/groups/:id", {
  params: recordParams,
  success: DataAnswer(PropertyGroupView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a property group").annotate(
  OpenApi.Description,
  "One property group (the built-in one included). Permission <kind>-index or property-manage."
)

/** `PUT /api/:kind/properties/groups/:id`: renames or redescribes a property group. */
export const UpdatePropertyGroupEndpoint: WaslEndpoint<"updateGroup", "PUT", "/:kind/properties/groups/:id", {
  params: RecordParams; payload: typeof PropertyGroupBody; success: DataMessageAnswer<typeof PropertyGroupView>
}> = HttpApiEndpoint.put("updateGroup", "/:kind/properties/groups/:id", {
  params: recordParams,
  payload: PropertyGroupBody,
  success: DataMessageAnswer(PropertyGroupView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Update a property group").annotate(
  OpenApi.Description,
  "Sets the group's name and description; its internal_name stays. The built-in group cannot be changed (403). Permission property-manage."
)

/** `DELETE /api/:kind/properties/groups/:id`: deletes an empty property group. */
export const DeletePropertyGroupEndpoint: WaslEndpoint<"deleteGroup", "DELETE", "/:kind/properties/groups/:id", {
  params: RecordParams; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("deleteGroup", "/:kind/properties/groups/:id", {
  params: recordParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a property group").annotate(
  OpenApi.Description,
  "Deletes the group; a group that still holds properties is a 422, the built-in group a 403. Permission property-manage."
)

/** `GET /api/:kind/properties`: the kind's property definitions, built-in and custom. */
export const ListPropertiesEndpoint: WaslEndpoint<"list", "GET", "/:kind/properties", {
  params: KindParams; success: DataAnswer<Schema.$Array<typeof PropertyView>>
}> = HttpApiEndpoint.get("list", "/:kind/properties", {
  params: kindParams,
  success: DataAnswer(Schema.Array(PropertyView)),
  error: commonErrors
}).annotate(OpenApi.Summary, "List properties").annotate(
  OpenApi.Description,
  "The kind's property definitions: the built-in ones (account_id null) and the account's. Permission <kind>-index or property-manage."
)

/** `POST /api/:kind/properties`: creates a custom property of the kind. */
export const CreatePropertyEndpoint: WaslEndpoint<"create", "POST", "/:kind/properties", {
  params: KindParams; payload: typeof PropertyBody; success: DataMessageAnswer<typeof PropertyView>
}> = HttpApiEndpoint.post("create", "/:kind/properties", {
  params: kindParams,
  payload: PropertyBody,
  success: DataMessageAnswer(PropertyView).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Create a custom property").annotate(
  OpenApi.Description,
  "Creates a custom property; internal_name matches ^[a-z][a-z0-9_]{0,62}$ and is unique in the kind, built-ins included. Permission property-manage."
)

/** `GET /api/:kind/properties/:id`: one property definition of the kind. */
export const ShowPropertyEndpoint: WaslEndpoint<"show", "GET", "/:kind/properties/:id", {
  params: RecordParams; success: DataAnswer<typeof PropertyView>
}> = HttpApiEndpoint.get("show", "/:kind/properties/:id", {
  params: recordParams,
  success: DataAnswer(PropertyView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a property").annotate(
  OpenApi.Description,
  "One property definition (built-in ones included). Permission <kind>-index or property-manage."
)

/** `PUT /api/:kind/properties/:id`: changes a custom property. */
export const UpdatePropertyEndpoint: WaslEndpoint<"update", "PUT", "/:kind/properties/:id", {
  params: RecordParams; payload: typeof PropertyBody; success: DataMessageAnswer<typeof PropertyView>
}> = HttpApiEndpoint.put("update", "/:kind/properties/:id", {
  params: recordParams,
  payload: PropertyBody,
  success: DataMessageAnswer(PropertyView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Update a custom property").annotate(
  OpenApi.Description,
  "Changes a custom property. A different internal_name, or a type the existing values cannot take, is a 422; a built-in property is a 403. Permission property-manage."
)

/** `DELETE /api/:kind/properties/:id`: deletes a custom property. */
export const DeletePropertyEndpoint: WaslEndpoint<"delete", "DELETE", "/:kind/properties/:id", {
  params: RecordParams; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("delete", "/:kind/properties/:id", {
  params: recordParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a custom property").annotate(
  OpenApi.Description,
  "Deletes a custom property; a built-in property is a 403. Permission property-manage."
)

const PropertiesGroupBase: AuthenticatedGroup<
  "properties",
  | typeof ListPropertyGroupsEndpoint
  | typeof CreatePropertyGroupEndpoint
  | typeof ShowPropertyGroupEndpoint
  | typeof UpdatePropertyGroupEndpoint
  | typeof DeletePropertyGroupEndpoint
  | typeof ListPropertiesEndpoint
  | typeof CreatePropertyEndpoint
  | typeof ShowPropertyEndpoint
  | typeof UpdatePropertyEndpoint
  | typeof DeletePropertyEndpoint
> = HttpApiGroup.make("properties")
  .add(ListPropertyGroupsEndpoint)
  .add(CreatePropertyGroupEndpoint)
  .add(ShowPropertyGroupEndpoint)
  .add(UpdatePropertyGroupEndpoint)
  .add(DeletePropertyGroupEndpoint)
  .add(ListPropertiesEndpoint)
  .add(CreatePropertyEndpoint)
  .add(ShowPropertyEndpoint)
  .add(UpdatePropertyEndpoint)
  .add(DeletePropertyEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The property definitions and property groups of each kind: the built-in ones (account_id null) to read, the account's own to create, change and delete."
  )

/**
 * The property definitions and property groups of each kind (`/api/{kind}/properties`): the
 * built-in ones to read, the account's own to create, change and delete. Reading needs the kind's
 * index permission or property-manage; writing needs property-manage.
 */
export class PropertiesGroup extends PropertiesGroupBase {}
