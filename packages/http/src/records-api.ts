/** Records of the six kinds: list, create, read, update, delete. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { CompanyJson, ContactJson, DealJson, InvoiceJson, ProductJson, TicketJson } from "@wasl/core"
import { type KindParams, kindParams, type RecordParams, recordParams } from "./kind-params.ts"
import { DeletedAnswer } from "./deleted-answer.ts"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { RECORD_LIST_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { withRequestExamples } from "./request-examples-openapi.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

/** A record in its kind's REST shape: deal `{properties, contacts}`, contact `{properties, channels}`, else `{properties}`. */
export const RecordView: Schema.Union<
  readonly [typeof DealJson, typeof ContactJson, typeof TicketJson, typeof CompanyJson, typeof InvoiceJson, typeof ProductJson]
> = Schema.Union([DealJson, ContactJson, TicketJson, CompanyJson, InvoiceJson, ProductJson])

/**
 * The body of a record create or update: a flat map internal_name → value over the kind's
 * built-in and custom properties, each value validated by the use-case against its property.
 */
export const RecordValues: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "internal_name → value; built-in and custom properties of the kind"
})

/** `GET /api/:kind`: the records of a kind, searched, filtered, ordered and paginated. */
export const ListRecordsEndpoint: WaslEndpoint<"list", "GET", "/:kind", {
  params: KindParams; success: Pagination<typeof RecordView>
}> = HttpApiEndpoint.get("list", "/:kind", {
  params: kindParams,
  success: Pagination(RecordView),
  error: commonErrors
}).annotate(OpenApi.Summary, "List records").annotate(
  OpenApi.Description,
  "One page of the kind's records, searched, filtered and ordered as the query says, in Laravel's paginator body: " +
    "data, links to the first, last, previous and next pages (the same query with another page) and meta. " +
    "Permission <kind>-index (deal-index, contact-index, ...)."
).annotate(OpenApi.Transform, withQueryParameters(RECORD_LIST_PARAMETERS))

/** `POST /api/:kind`: creates a record of the kind. */
export const CreateRecordEndpoint: WaslEndpoint<"create", "POST", "/:kind", {
  params: KindParams; payload: typeof RecordValues; success: DataMessageAnswer<typeof RecordView>
}> = HttpApiEndpoint.post("create", "/:kind", {
  params: kindParams,
  payload: RecordValues,
  success: DataMessageAnswer(RecordView).pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Create a record").annotate(
  OpenApi.Description,
  "Creates a record from a flat map internal_name → value; an unknown name, a wrong type or a read-only property is a 422 on that key. Fires <kind>-created. Permission <kind>-create."
).annotate(
  OpenApi.Transform,
  withRequestExamples({
    deal: { summary: "POST /api/deals", value: { deal_name: "Annual renewal", amount: 250 } },
    contact: { summary: "POST /api/contacts", value: { firstname: "Amal", lastname: "Haddad", email: "amal@example.com" } }
  })
)

/** `GET /api/:kind/:id`: one record of the kind. */
export const ShowRecordEndpoint: WaslEndpoint<"show", "GET", "/:kind/:id", {
  params: RecordParams; success: DataAnswer<typeof RecordView>
}> = HttpApiEndpoint.get("show", "/:kind/:id", {
  params: recordParams,
  success: DataAnswer(RecordView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show a record").annotate(
  OpenApi.Description,
  "The record in its kind's shape; another account's is 404. Permission <kind>-show."
)

/** `PUT /api/:kind/:id`: sets some of a record's values. */
export const UpdateRecordEndpoint: WaslEndpoint<"update", "PUT", "/:kind/:id", {
  params: RecordParams; payload: typeof RecordValues; success: DataMessageAnswer<typeof RecordView>
}> = HttpApiEndpoint.put("update", "/:kind/:id", {
  params: recordParams,
  payload: RecordValues,
  success: DataMessageAnswer(RecordView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Update a record").annotate(
  OpenApi.Description,
  "Sets the values given (a partial flat map internal_name → value), validated like create. Fires <kind>-updated. Permission <kind>-update."
)

/** `DELETE /api/:kind/:id`: deletes a record with its links and notes. */
export const DeleteRecordEndpoint: WaslEndpoint<"delete", "DELETE", "/:kind/:id", {
  params: RecordParams; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("delete", "/:kind/:id", {
  params: recordParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete a record").annotate(
  OpenApi.Description,
  "Deletes the record, its links and its notes; fires <kind>-deleted for the record only. Permission <kind>-delete."
)

/** @ignore */
export const RecordsGroupBase: AuthenticatedGroup<
  "records",
  | typeof ListRecordsEndpoint
  | typeof CreateRecordEndpoint
  | typeof ShowRecordEndpoint
  | typeof UpdateRecordEndpoint
  | typeof DeleteRecordEndpoint
> = HttpApiGroup.make("records")
  .add(ListRecordsEndpoint)
  .add(CreateRecordEndpoint)
  .add(ShowRecordEndpoint)
  .add(UpdateRecordEndpoint)
  .add(DeleteRecordEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Records of the six kinds (contacts, companies, deals, tickets, invoices, products): list with search, filters, order and pagination; create, read, update, delete."
  )

/**
 * The records of the six kinds (`/api/{kind}`: contacts, companies, deals, tickets, invoices,
 * products): list, create, read, update, delete, each behind the kind's permission
 * (`deal-index`, `deal-create`, ...).
 */
export class RecordsGroup extends RecordsGroupBase {}
