/** Properties and property groups of every object kind (spec §4.7, §4.8; decisions §5). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ObjectPath, RecordId } from "@wasl/core"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { PropertyGroupView, PropertyView } from "./property-views.ts"
import { Authentication } from "./security.ts"

/** A JSON object body, validated by core with Laravel's messages (the exact rules are in decisions §5). */
const Body = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "type, name {ar, en}, desc?, internal_name (create only), group_id, enum (select types)"
})
const GroupBody = Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "name {ar, en}, desc?" })

const kindParam = { kind: ObjectPath }
const idParams = { kind: ObjectPath, id: RecordId }
const Deleted = Schema.Struct({ message: Schema.String, data: Schema.Tuple([]) })
const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

export class PropertiesGroup extends HttpApiGroup.make("properties")
  .add(HttpApiEndpoint.get("listGroups", "/:kind/properties/groups", {
    params: kindParam,
    success: Schema.Struct({ data: Schema.Array(PropertyGroupView) }),
    error: errors
  }))
  .add(HttpApiEndpoint.post("createGroup", "/:kind/properties/groups", {
    params: kindParam,
    payload: GroupBody,
    success: Schema.Struct({ data: PropertyGroupView, message: Schema.String }).pipe(HttpApiSchema.status(201)),
    error: errors
  }))
  .add(HttpApiEndpoint.get("showGroup", "/:kind/properties/groups/:id", {
    params: idParams,
    success: Schema.Struct({ data: PropertyGroupView }),
    error: errors
  }))
  .add(HttpApiEndpoint.put("updateGroup", "/:kind/properties/groups/:id", {
    params: idParams,
    payload: GroupBody,
    success: Schema.Struct({ data: PropertyGroupView, message: Schema.String }),
    error: errors
  }))
  .add(HttpApiEndpoint.delete("deleteGroup", "/:kind/properties/groups/:id", {
    params: idParams,
    success: Deleted,
    error: errors
  }))
  .add(HttpApiEndpoint.get("list", "/:kind/properties", {
    params: kindParam,
    success: Schema.Struct({ data: Schema.Array(PropertyView) }),
    error: errors
  }))
  .add(HttpApiEndpoint.post("create", "/:kind/properties", {
    params: kindParam,
    payload: Body,
    success: Schema.Struct({ data: PropertyView, message: Schema.String }).pipe(HttpApiSchema.status(201)),
    error: errors
  }))
  .add(HttpApiEndpoint.get("show", "/:kind/properties/:id", {
    params: idParams,
    success: Schema.Struct({ data: PropertyView }),
    error: errors
  }))
  .add(HttpApiEndpoint.put("update", "/:kind/properties/:id", {
    params: idParams,
    payload: Body,
    success: Schema.Struct({ data: PropertyView, message: Schema.String }),
    error: errors
  }))
  .add(HttpApiEndpoint.delete("delete", "/:kind/properties/:id", {
    params: idParams,
    success: Deleted,
    error: errors
  }))
  .middleware(Authentication)
  .prefix("/api")
  .annotate(OpenApi.Description, "Custom property definitions and groups; built-ins are listed with account_id null.")
{}
