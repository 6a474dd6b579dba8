/** CSV exports of records: ask for one, follow it, download its file. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ExportJson } from "@wasl/core/Exports"
import { type AuthenticatedGroup, DataAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { type CommonErrors, Forbidden403, Gone410, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { type KindParams, kindParams } from "./kind-params.ts"
import { withRequestExamples } from "./request-examples-openapi.ts"
import { Authentication } from "./security.ts"

/**
 * The body of an export request: the list query of `GET /api/{kind}` as JSON and the columns, a
 * free-form object the use-case validates (with the list's messages).
 */
export const ExportBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "{ search?, order?, direction?, complex_filters?, properties? }: the list query of GET /api/{kind}, and the columns"
})

/** The file of an export: CSV in UTF-8, read as it is sent. */
export const ExportFile: HttpApiSchema.StreamUint8Array = HttpApiSchema.StreamUint8Array({
  contentType: "text/csv; charset=utf-8"
})

/** `POST /api/:kind/exports`: queues a CSV export of the records a list query matches. */
export const RequestExportEndpoint: WaslEndpoint<"request", "POST", "/:kind/exports", {
  params: KindParams; payload: typeof ExportBody; success: DataAnswer<typeof ExportJson>
}> = HttpApiEndpoint.post("request", "/:kind/exports", {
  params: kindParams,
  payload: ExportBody,
  success: DataAnswer(ExportJson).pipe(HttpApiSchema.status(202)),
  error: [Unauthenticated401, Forbidden403, NotFound404, Validation422]
}).annotate(OpenApi.Summary, "Export records as CSV").annotate(
  OpenApi.Description,
  "Queues an export of every record the list query matches, over all pages: search, order, direction and complex_filters " +
    "as GET /api/{kind} takes them (complex_filters as JSON), validated the same way, with the same 422 messages. " +
    "properties chooses the columns (internal_names of the kind; default all of them, built-in then custom): the file has " +
    "_id, those, created_at and updated_at. Answers 202 with the export, queued; a worker writes the file, then the " +
    "requester gets an ObjectsExport notification on the channels they chose. Follow it with GET /api/exports/{_id}. " +
    "Permission <kind>-index."
).annotate(
  OpenApi.Transform,
  withRequestExamples({
    deals: {
      summary: "POST /api/deals/exports",
      value: {
        order: "amount",
        direction: "desc",
        complex_filters: [{ property: "amount", operator: "gt", value: 100 }],
        properties: ["deal_name", "amount"]
      }
    }
  })
)

/** `GET /api/exports/:id`: where an export is. */
export const ShowExportEndpoint: WaslEndpoint<"show", "GET", "/exports/:id", {
  params: PathParams<{ id: Schema.String }>; success: DataAnswer<typeof ExportJson>
}> = HttpApiEndpoint.get("show", "/exports/:id", {
  params: { id: Schema.String },
  success: DataAnswer(ExportJson),
  error: [Unauthenticated401, Forbidden403, NotFound404, Validation422]
}).annotate(OpenApi.Summary, "Show an export").annotate(
  OpenApi.Description,
  "The export's status: queued, running, completed (with row_count and byte_size), failed (with failure_reason) or " +
    "expired (its file was kept until expires_at). Another account's export is 404. Permission <kind>-index of its kind."
)

/** `GET /api/exports/:id/download`: an export's CSV file. */
export const DownloadExportEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "download",
  "GET",
  "/exports/:id/download",
  PathParams<{ id: Schema.String }>,
  never,
  never,
  never,
  typeof ExportFile,
  Schema.toCodecJson<CommonErrors | typeof Gone410>
> = HttpApiEndpoint.get("download", "/exports/:id/download", {
  params: { id: Schema.String },
  success: ExportFile,
  error: [Unauthenticated401, Forbidden403, NotFound404, Gone410, Validation422]
}).annotate(OpenApi.Summary, "Download an export").annotate(
  OpenApi.Description,
  "The file of a completed export, as an attachment: CSV (RFC 4180, CRLF line ends) in UTF-8 with a byte order mark, " +
    "a header row of the columns, then a row per record in the list's order. Values are written as the API shows them " +
    "(timestamps ISO 8601, booleans true/false, lists joined with ;); a text beginning with =, +, -, @, a tab or a " +
    "carriage return gets a leading ' so spreadsheets do not run it as a formula. 404 while the export is queued or " +
    "running; 410 with its status once the file expired (expires_at) or when the export failed. " +
    "Permission <kind>-index of its kind."
)

const ExportsGroupBase: AuthenticatedGroup<
  "exports",
  typeof RequestExportEndpoint | typeof ShowExportEndpoint | typeof DownloadExportEndpoint
> = HttpApiGroup.make("exports")
  .add(RequestExportEndpoint)
  .add(ShowExportEndpoint)
  .add(DownloadExportEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "CSV exports of records: the records a list query matches, over all pages, written by the worker, downloadable until they expire."
  )

/**
 * CSV exports (`POST /api/{kind}/exports`, `GET /api/exports/{_id}`, `.../download`), each behind
 * the kind's `<kind>-index` permission.
 */
export class ExportsGroup extends ExportsGroupBase {}
