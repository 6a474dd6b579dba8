/**
 * The trash of each kind: `GET /api/{kind}/trash`, `POST /api/{kind}/{_id}/restore`,
 * `DELETE /api/{kind}/trash/{_id}`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { TrashedRecordJson } from "@wasl/core/Records"
import { DeletedAnswer } from "./deleted-answer.ts"
import { type AuthenticatedGroup, commonErrors, DataMessageAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { type KindParams, kindParams, type RecordParams, recordParams } from "./kind-params.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import { RecordView } from "./records-api.ts"
import { Authentication } from "./security.ts"

/** `GET /api/:kind/trash`: the kind's deleted records, newest deletion first, paginated. */
export const ListTrashEndpoint: WaslEndpoint<"list", "GET", "/:kind/trash", {
  params: KindParams; success: Pagination<typeof TrashedRecordJson>
}> = HttpApiEndpoint.get("list", "/:kind/trash", {
  params: kindParams,
  success: Pagination(TrashedRecordJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "List the trash").annotate(
  OpenApi.Description,
  "The kind's deleted records, newest deletion first: each as it was shown when deleted, with deleted_at, deleted_by, " +
    "merged_into (the record a merge kept) and expires_at (when the worker purges it, WASL_RETENTION_TRASH after its " +
    "deletion). Permission <kind>-index."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `POST /api/:kind/:id/restore`: brings a deleted record back. */
export const RestoreRecordEndpoint: WaslEndpoint<"restore", "POST", "/:kind/:id/restore", {
  params: RecordParams; success: DataMessageAnswer<typeof RecordView>
}> = HttpApiEndpoint.post("restore", "/:kind/:id/restore", {
  params: recordParams,
  success: DataMessageAnswer(RecordView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Restore a deleted record").annotate(
  OpenApi.Description,
  "Brings the record back from the trash under its _id with its values, notes and links (a link to a record still in " +
    "the trash comes back when that one does); fires <kind>-restored, and <kind>-updated for the records on the other " +
    "side whose shape shows the link. 404 when the trash holds no such record. Permission <kind>-delete."
)

/** `DELETE /api/:kind/trash/:id`: deletes a record in the trash for good. */
export const PurgeTrashedRecordEndpoint: WaslEndpoint<"purge", "DELETE", "/:kind/trash/:id", {
  params: RecordParams; success: typeof DeletedAnswer
}> = HttpApiEndpoint.delete("purge", "/:kind/trash/:id", {
  params: recordParams,
  success: DeletedAnswer,
  error: commonErrors
}).annotate(OpenApi.Summary, "Purge a deleted record").annotate(
  OpenApi.Description,
  "Deletes the record in the trash for good, with its notes and links. Permission <kind>-delete."
)

const TrashGroupBase: AuthenticatedGroup<
  "trash",
  typeof ListTrashEndpoint | typeof RestoreRecordEndpoint | typeof PurgeTrashedRecordEndpoint
> = HttpApiGroup.make("trash")
  .add(ListTrashEndpoint)
  .add(RestoreRecordEndpoint)
  .add(PurgeTrashedRecordEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The trash: a delete moves a record there with its notes and links for WASL_RETENTION_TRASH (30 days by default). " +
      "It is gone from every read, list, search, filter, export, upsert match and link until it is restored."
  )

/** The trash of each kind (`/api/{kind}/trash`): list, restore, purge. */
export class TrashGroup extends TrashGroupBase {}
