/** The property history of records, for every kind. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { HistoryEntryJson } from "@wasl/core/Records"
import { type RecordParams, recordParams } from "./kind-params.ts"
import { type AuthenticatedGroup, commonErrors, type WaslEndpoint } from "./endpoint-types.ts"
import { HISTORY_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

/** `GET /api/:kind/:id/history`: the record's property changes, newest first, paginated. */
export const ListHistoryEndpoint: WaslEndpoint<"list", "GET", "/:kind/:id/history", {
  params: RecordParams; success: Pagination<typeof HistoryEntryJson>
}> = HttpApiEndpoint.get("list", "/:kind/:id/history", {
  params: recordParams,
  success: Pagination(HistoryEntryJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "List a record's property history").annotate(
  OpenApi.Description,
  "Every change of the record's property values (built-in and custom), newest first, one page at a time: " +
    "the value after and before the change (the stored form; null: none; a create records the initial values), " +
    "how it was made (source: api, batch, import, merge, restore, system), by which user (user_id, null when no " +
    "user acted) and when (changed_at). `property` keeps one property's changes. Entries are kept " +
    "WASL_RETENTION_HISTORY (a year by default). Permission <kind>-show (contact-show, deal-show, ...)."
).annotate(OpenApi.Transform, withQueryParameters(HISTORY_PARAMETERS))

const HistoryGroupBase: AuthenticatedGroup<"history", typeof ListHistoryEndpoint> = HttpApiGroup.make("history")
  .add(ListHistoryEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(OpenApi.Description, "The property history of a record of any kind: who changed which value, when and how.")

/** The property history of a record of any kind (`/api/{kind}/{id}/history`); reading needs the kind's show permission. */
export class HistoryGroup extends HistoryGroupBase {}
