/** CSV imports of records: upload a file, follow its status, download its refused rows. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ImportView, MAX_IMPORT_BYTES, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from "@wasl/core/Imports"
import type { CommonErrors } from "./errors.ts"
import { type AuthenticatedGroup, commonErrors, DataAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { type KindParams, kindParams, type RecordParams, recordParams } from "./kind-params.ts"
import { Authentication } from "./security.ts"

/**
 * The form of an upload (multipart/form-data), read as it streams: the handler takes its parts in
 * order, so the file is never held whole.
 */
/** The schema of {@link ImportForm}: the file and the optional `match_on` field. */
export type ImportForm = HttpApiSchema.asMultipartStream<
  Schema.Struct<{ readonly file: Schema.String; readonly match_on: Schema.optionalKey<Schema.String> }>
>

/** The form of `POST /api/:kind/imports`, documented as multipart/form-data and streamed to the handler. */
export const ImportForm: ImportForm = Schema.Struct({
  file: Schema.String.annotate({
    format: "binary",
    description: "The CSV (UTF-8, RFC 4180, comma-separated). Its header row names the internal_name of each column's property."
  }),
  match_on: Schema.optionalKey(Schema.String.annotate({
    description: "A property of the kind that is also a column (e.g. email): a row whose value of it is one record's updates that record instead of creating one."
  }))
}).pipe(HttpApiSchema.asMultipartStream())

const LIMITS = `Limits: ${MAX_IMPORT_BYTES / 1024 / 1024} MiB, ${MAX_IMPORT_ROWS.toLocaleString("en")} rows besides the header, ` +
  `${MAX_IMPORT_COLUMNS} columns.`

/** `POST /api/:kind/imports`: uploads a CSV of records to import. */
export const StartImportEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "start",
  "POST",
  "/:kind/imports",
  KindParams,
  never,
  Schema.toCodecJson<ImportForm>,
  never,
  Schema.toCodecJson<DataAnswer<typeof ImportView>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.post("start", "/:kind/imports", {
  params: kindParams,
  payload: ImportForm,
  success: DataAnswer(ImportView).pipe(HttpApiSchema.status(202)),
  error: commonErrors
}).annotate(OpenApi.Summary, "Import records from a CSV file").annotate(
  OpenApi.Description,
  "Reads the uploaded file as it arrives and queues its rows for the worker: 202 with the import, queued. " +
    "A row is validated exactly as POST /api/{kind} validates a body (its non-empty cells keyed by their columns; an empty cell sets nothing) " +
    "and fires <kind>-created, or with match_on, when one record has the row's value, is validated as PUT /api/{kind}/{_id} and fires <kind>-updated; " +
    "a row that matches more than one record is refused. A refused row never stops the others. " +
    "The file is refused whole (a 422 on file, nothing stored) when it is not UTF-8 or holds a NUL character (in its content or its name), is not valid CSV, has a row wider or narrower than its header, " +
    "a column that is not a property of the kind or is named twice, or breaks a limit; match_on not a property among the columns is a 422 on match_on. " +
    LIMITS + " When the import ends, the uploader gets the ObjectsImport notification on the channels they chose. " +
    "Permission <kind>-create, and <kind>-update too with match_on."
)

/** `GET /api/:kind/imports/:id`: an import's status and counts. */
export const ShowImportEndpoint: WaslEndpoint<"show", "GET", "/:kind/imports/:id", {
  params: RecordParams; success: DataAnswer<typeof ImportView>
}> = HttpApiEndpoint.get("show", "/:kind/imports/:id", {
  params: recordParams,
  success: DataAnswer(ImportView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Show an import").annotate(
  OpenApi.Description,
  "The import's status (queued, running, completed, failed, with its reason), the file's rows, the rows read so far, " +
    "records created and updated, rows refused, and the first 20 refused rows with their line (the header is line 1) and their 422 messages. " +
    "Another account's import is 404. Permission <kind>-create."
)

/** The refused rows of an import, as CSV. */
export const ImportErrorsCsv: HttpApiSchema.StreamUint8Array = HttpApiSchema.StreamUint8Array({ contentType: "text/csv" })

/** `GET /api/:kind/imports/:id/errors`: the import's refused rows as CSV. */
export const ImportErrorsEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "errors",
  "GET",
  "/:kind/imports/:id/errors",
  RecordParams,
  never,
  never,
  never,
  HttpApiSchema.StreamUint8Array,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.get("errors", "/:kind/imports/:id/errors", {
  params: recordParams,
  success: ImportErrorsCsv,
  error: commonErrors
}).annotate(OpenApi.Summary, "Download an import's refused rows").annotate(
  OpenApi.Description,
  "The refused rows as CSV, streamed: the file's columns and an error column with the row's messages, in line order " +
    "(while the import runs, those refused so far). A cell beginning with =, +, -, @, a tab or a carriage return gets a " +
    "leading ' so spreadsheets do not run it as a formula, as in an export. Another account's import is 404. " +
    "Permission <kind>-create."
)

const ImportsGroupBase: AuthenticatedGroup<
  "imports",
  typeof StartImportEndpoint | typeof ShowImportEndpoint | typeof ImportErrorsEndpoint
> = HttpApiGroup.make("imports")
  .add(StartImportEndpoint)
  .add(ShowImportEndpoint)
  .add(ImportErrorsEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "CSV imports of records of the six kinds, written by the worker in the background: upload, status, refused rows."
  )

/** CSV imports: `/api/{kind}/imports`. */
export class ImportsGroup extends ImportsGroupBase {}
