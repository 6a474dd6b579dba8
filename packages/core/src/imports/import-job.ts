/**
 * A CSV import of records (`POST /api/{kind}/imports`): the file's rows are staged at upload, then
 * a worker writes them as records, batch after batch, keeping its place (`nextLine`) and its
 * counts in the same transaction as the records it writes.
 *
 * Lines: a row's `line` is its record number in the file, the header row being 1 (blank lines are
 * skipped and not counted).
 */
import type { DateTime } from "effect"
import { Schema } from "effect"
import type { ObjectKind } from "../records/object-kind.ts"
import { WireTimestamp } from "../wire/timestamp.ts"

/** Where an import is: staged and waiting, being written, done, or given up with its reason. */
export const ImportStatus: Schema.Literals<readonly ["queued", "running", "completed", "failed"]> = Schema.Literals([
  "queued",
  "running",
  "completed",
  "failed"
])
/** Where an import is. */
export type ImportStatus = typeof ImportStatus.Type

/** A row's 422 messages, keyed as `POST /api/{kind}` keys them (by property). */
export type RowErrors = Readonly<Record<string, ReadonlyArray<string>>>

/** An import as stored. */
export interface ImportJob {
  /** Its id (24 hex, like a record's). */
  readonly id: string
  /** The account it writes into. */
  readonly accountId: number
  /** Who uploaded it: the user told when it ends. */
  readonly userId: number
  /** The kind of the records it writes. */
  readonly kind: ObjectKind
  /** Where it is. */
  readonly status: ImportStatus
  /** The uploaded file's name, as the client gave it. */
  readonly fileName: string
  /** The header row: the internal_name of each column, in order. */
  readonly columns: ReadonlyArray<string>
  /** The property whose value finds the record a row updates; null: every row creates. */
  readonly matchOn: string | null
  /** How many data rows the file has. */
  readonly rowsTotal: number
  /** The line of the next row to write (the first data row is line 2). */
  readonly nextLine: number
  /** Rows written so far, failed ones included. */
  readonly rowsRead: number
  /** Records created so far. */
  readonly created: number
  /** Records updated so far. */
  readonly updated: number
  /** Rows refused so far (each keeps its messages). */
  readonly failed: number
  /** Why a failed import stopped; null otherwise. */
  readonly reason: string | null
  /** When it was uploaded. */
  readonly createdAt: DateTime.Utc
  /** When it last moved. */
  readonly updatedAt: DateTime.Utc
  /** When it completed or failed; null before. */
  readonly finishedAt: DateTime.Utc | null
}

/** A staged row: its line and its cells, one per column. */
export interface ImportRow {
  /** Its line in the file (the header is line 1). */
  readonly line: number
  /** Its cells, in the header's order. */
  readonly cells: ReadonlyArray<string>
}

/** A refused row: its line, its cells and the messages `POST /api/{kind}` would give it. */
export interface FailedRow extends ImportRow {
  /** The row's 422 messages. */
  readonly errors: RowErrors
}

/** A refused row as the import's status shows it. */
export const ImportFailure: Schema.Struct<{
  readonly line: Schema.Int
  readonly errors: Schema.$Record<Schema.String, Schema.$Array<Schema.String>>
}> = Schema.Struct({
  line: Schema.Int,
  errors: Schema.Record(Schema.String, Schema.Array(Schema.String))
}).annotate({ identifier: "ImportFailure", description: "A refused row: its line (the header is line 1) and its 422 messages" })

/** An import as `GET /api/{kind}/imports/{_id}` answers it. */
export const ImportView: Schema.Struct<{
  readonly _id: Schema.String
  readonly object_type: Schema.String
  readonly status: typeof ImportStatus
  readonly file_name: Schema.String
  readonly match_on: Schema.NullOr<Schema.String>
  readonly rows_total: Schema.Int
  readonly rows_read: Schema.Int
  readonly created: Schema.Int
  readonly updated: Schema.Int
  readonly failed: Schema.Int
  readonly failures: Schema.$Array<typeof ImportFailure>
  readonly reason: Schema.NullOr<Schema.String>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
  readonly finished_at: Schema.NullOr<typeof WireTimestamp>
}> = Schema.Struct({
  _id: Schema.String,
  object_type: Schema.String,
  status: ImportStatus,
  file_name: Schema.String,
  match_on: Schema.NullOr(Schema.String),
  rows_total: Schema.Int,
  rows_read: Schema.Int,
  created: Schema.Int,
  updated: Schema.Int,
  failed: Schema.Int,
  failures: Schema.Array(ImportFailure),
  reason: Schema.NullOr(Schema.String),
  created_at: WireTimestamp,
  updated_at: WireTimestamp,
  finished_at: Schema.NullOr(WireTimestamp)
}).annotate({ identifier: "Import" })
/** An import as its status answers it. */
export type ImportView = typeof ImportView.Type

/** How many failures the status shows (the errors CSV has them all). */
export const FAILURES_SHOWN = 20

/** The view of a stored import with its first failures. */
export const importView = (job: ImportJob, failures: ReadonlyArray<FailedRow>): ImportView => ({
  _id: job.id,
  object_type: job.kind,
  status: job.status,
  file_name: job.fileName,
  match_on: job.matchOn,
  rows_total: job.rowsTotal,
  rows_read: job.rowsRead,
  created: job.created,
  updated: job.updated,
  failed: job.failed,
  failures: failures.map((row) => ({ line: row.line, errors: row.errors })),
  reason: job.reason,
  created_at: job.createdAt,
  updated_at: job.updatedAt,
  finished_at: job.finishedAt
})
