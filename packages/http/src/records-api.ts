/** Records of the six kinds: list, create, read, update, delete, and the same writes in batches. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CompanyJson,
  ContactJson,
  DealJson,
  InvoiceJson,
  MAX_BATCH_INPUTS,
  ProductJson,
  TicketJson
} from "@wasl/core/Records"
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

/**
 * The body of a records batch, `{ inputs: [...] }`: a free-form object the use-case validates
 * (with Laravel's messages keyed `inputs.N...`), each input in the shape its operation's
 * description gives.
 */
export const BatchBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: `{ inputs: [...] }: 1 to ${MAX_BATCH_INPUTS} inputs, each in the shape the operation describes`
})

/** The answer of a batch that writes records: the records in the inputs' order, and the single call's message. */
export type BatchRecordsAnswer = DataMessageAnswer<Schema.$Array<typeof RecordView>>
/** The schema of {@link BatchRecordsAnswer}. */
export const BatchRecordsAnswer: BatchRecordsAnswer = DataMessageAnswer(Schema.Array(RecordView))

/** The answer of a batch delete: the ids deleted, in the inputs' order, and the single delete's message. */
export type BatchDeletedAnswer = DataMessageAnswer<Schema.$Array<Schema.String>>
/** The schema of {@link BatchDeletedAnswer}. */
export const BatchDeletedAnswer: BatchDeletedAnswer = DataMessageAnswer(Schema.Array(Schema.String))

const BATCH_RULES = ` One transaction: every input is written or, when any is invalid, none is (a 422 listing every bad input, ` +
  `each message the one the single call gives, keyed under the input: inputs.3.email). At most ${MAX_BATCH_INPUTS} inputs; ` +
  `more is a 422 on inputs. Inputs are taken in order; each record written fires the single call's event.`

/** `POST /api/:kind/batch/create`: creates up to 100 records of the kind at once. */
export const BatchCreateRecordsEndpoint: WaslEndpoint<"batchCreate", "POST", "/:kind/batch/create", {
  params: KindParams; payload: typeof BatchBody; success: BatchRecordsAnswer
}> = HttpApiEndpoint.post("batchCreate", "/:kind/batch/create", {
  params: kindParams,
  payload: BatchBody,
  success: BatchRecordsAnswer.pipe(HttpApiSchema.status(201)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Create records in a batch").annotate(
  OpenApi.Description,
  "Creates a record from each input { properties }, properties being the body of a single create. " +
    "Answers the records in the inputs' order. Fires <kind>-created per record." + BATCH_RULES + " Permission <kind>-create."
).annotate(
  OpenApi.Transform,
  withRequestExamples({
    contacts: {
      summary: "POST /api/contacts/batch/create",
      value: { inputs: [{ properties: { firstname: "Amal", email: "amal@example.com" } }, { properties: { firstname: "Omar" } }] }
    }
  })
)

/** `POST /api/:kind/batch/update`: sets some values of up to 100 records of the kind at once. */
export const BatchUpdateRecordsEndpoint: WaslEndpoint<"batchUpdate", "POST", "/:kind/batch/update", {
  params: KindParams; payload: typeof BatchBody; success: BatchRecordsAnswer
}> = HttpApiEndpoint.post("batchUpdate", "/:kind/batch/update", {
  params: kindParams,
  payload: BatchBody,
  success: BatchRecordsAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Update records in a batch").annotate(
  OpenApi.Description,
  "Sets the values given of the record each input { id, properties } names, properties being the body of a single update. " +
    "An id the account has no record of (another account's included) is a 422 on inputs.N.id. " +
    "Answers the updated records in the inputs' order. Fires <kind>-updated per record." + BATCH_RULES + " Permission <kind>-update."
).annotate(
  OpenApi.Transform,
  withRequestExamples({
    deals: {
      summary: "POST /api/deals/batch/update",
      value: { inputs: [{ id: "6744a1f0c2b3d4e5f6a7b8c9", properties: { amount: 300 } }] }
    }
  })
)

/** `POST /api/:kind/batch/delete`: deletes up to 100 records of the kind at once. */
export const BatchDeleteRecordsEndpoint: WaslEndpoint<"batchDelete", "POST", "/:kind/batch/delete", {
  params: KindParams; payload: typeof BatchBody; success: BatchDeletedAnswer
}> = HttpApiEndpoint.post("batchDelete", "/:kind/batch/delete", {
  params: kindParams,
  payload: BatchBody,
  success: BatchDeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Delete records in a batch").annotate(
  OpenApi.Description,
  "Deletes the record each input { id } names, with its links and notes. An id the account has no record of is a 422 on " +
    "inputs.N.id. Answers 200 with the ids deleted in data, in the inputs' order, and the single delete's message. " +
    "Fires <kind>-deleted per record." + BATCH_RULES + " Permission <kind>-delete."
).annotate(
  OpenApi.Transform,
  withRequestExamples({
    tickets: { summary: "POST /api/tickets/batch/delete", value: { inputs: [{ id: "6744a1f0c2b3d4e5f6a7b8c9" }] } }
  })
)

/** `POST /api/:kind/batch/upsert`: creates or updates up to 100 records of the kind, matched by a property's value. */
export const BatchUpsertRecordsEndpoint: WaslEndpoint<"batchUpsert", "POST", "/:kind/batch/upsert", {
  params: KindParams; payload: typeof BatchBody; success: BatchRecordsAnswer
}> = HttpApiEndpoint.post("batchUpsert", "/:kind/batch/upsert", {
  params: kindParams,
  payload: BatchBody,
  success: BatchRecordsAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Create or update records in a batch").annotate(
  OpenApi.Description,
  "For each input { id, id_property?, properties }: the record whose id_property (the input's, else the body's id_property) " +
    "has the value id is updated with properties, validated as a single update; when none has it, a record is created " +
    "from properties with id_property set to id, validated as a single create. A value more than one record holds is a " +
    "422 on inputs.N.id; an id_property that is not a property of the kind, a 422 on it. Answers the records in the inputs' " +
    "order. Fires <kind>-created or <kind>-updated per record." + BATCH_RULES +
    " Permissions <kind>-create and <kind>-update."
).annotate(
  OpenApi.Transform,
  withRequestExamples({
    contacts: {
      summary: "POST /api/contacts/batch/upsert",
      value: {
        id_property: "email",
        inputs: [{ id: "amal@example.com", properties: { firstname: "Amal" } }, { id: "omar@example.com", properties: { firstname: "Omar" } }]
      }
    }
  })
)

const RecordsGroupBase: AuthenticatedGroup<
  "records",
  | typeof ListRecordsEndpoint
  | typeof CreateRecordEndpoint
  | typeof ShowRecordEndpoint
  | typeof UpdateRecordEndpoint
  | typeof DeleteRecordEndpoint
  | typeof BatchCreateRecordsEndpoint
  | typeof BatchUpdateRecordsEndpoint
  | typeof BatchDeleteRecordsEndpoint
  | typeof BatchUpsertRecordsEndpoint
> = HttpApiGroup.make("records")
  .add(ListRecordsEndpoint)
  .add(CreateRecordEndpoint)
  .add(ShowRecordEndpoint)
  .add(UpdateRecordEndpoint)
  .add(DeleteRecordEndpoint)
  .add(BatchCreateRecordsEndpoint)
  .add(BatchUpdateRecordsEndpoint)
  .add(BatchDeleteRecordsEndpoint)
  .add(BatchUpsertRecordsEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Records of the six kinds (contacts, companies, deals, tickets, invoices, products): list with search, filters, order and pagination; create, read, update, delete; and create, update, delete or upsert up to 100 at once, all or nothing."
  )

/**
 * The records of the six kinds (`/api/{kind}`: contacts, companies, deals, tickets, invoices,
 * products): list, create, read, update, delete, and the writes in batches of up to 100, each
 * behind the kind's permission (`deal-index`, `deal-create`, ...).
 */
export class RecordsGroup extends RecordsGroupBase {}
