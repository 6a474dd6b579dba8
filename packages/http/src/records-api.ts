/** Records of the six kinds (decisions §3, §4): list, create, read, update, delete. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { CompanyJson, ContactJson, DealJson, InvoiceJson, ObjectPath, ProductJson, RecordId, TicketJson } from "@wasl/core"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

/** A record in its kind's REST shape: deal `{properties, contacts}`, contact `{properties, channels}`, else `{properties}`. */
export const RecordView = Schema.Union([DealJson, ContactJson, TicketJson, CompanyJson, InvoiceJson, ProductJson])

/** A flat map internal_name → value, validated by core against the kind's properties. */
const Values = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "internal_name → value; built-in and custom properties of the kind"
})

const kindParam = { kind: ObjectPath }
const idParams = { kind: ObjectPath, id: RecordId }
const Deleted = Schema.Struct({ message: Schema.String, data: Schema.Tuple([]) })
const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

export class RecordsGroup extends HttpApiGroup.make("records")
  .add(
    HttpApiEndpoint.get("list", "/:kind", {
      params: kindParam,
      success: Pagination(RecordView),
      error: errors
    }).annotate(
      OpenApi.Description,
      "Query: page, per_page (1–100, default 15), search, order (a property, created_at, updated_at), " +
        "direction (asc|desc), complex_filters (JSON or bracket notation; decisions §4)."
    )
  )
  .add(HttpApiEndpoint.post("create", "/:kind", {
    params: kindParam,
    payload: Values,
    success: Schema.Struct({ data: RecordView, message: Schema.String }).pipe(HttpApiSchema.status(201)),
    error: errors
  }))
  .add(HttpApiEndpoint.get("show", "/:kind/:id", {
    params: idParams,
    success: Schema.Struct({ data: RecordView }),
    error: errors
  }))
  .add(HttpApiEndpoint.put("update", "/:kind/:id", {
    params: idParams,
    payload: Values,
    success: Schema.Struct({ data: RecordView, message: Schema.String }),
    error: errors
  }))
  .add(HttpApiEndpoint.delete("delete", "/:kind/:id", {
    params: idParams,
    success: Deleted,
    error: errors
  }))
  .middleware(Authentication)
  .prefix("/api")
{}
