/**
 * A CSV export of an account's records of one kind: what was asked (the list query and the
 * columns), who asked, and how far the worker got. The file itself is kept as chunks beside the
 * row (ExportRepository) until the retention of exports runs out; then the download is gone (410)
 * but the row stays as long again, so its status answers `expired`, before it is pruned too.
 */
import { DateTime, Schema } from "effect"
import type { ObjectKind } from "../records/object-kind.ts"
import { WireTimestamp } from "../wire/timestamp.ts"

/** The stored states of an export: waiting for a worker, being written, written, or given up. */
export const EXPORT_STATUSES = ["queued", "running", "completed", "failed"] as const
/** A stored export state. */
export type ExportStatus = typeof EXPORT_STATUSES[number]

/** The list query of `GET /api/{kind}` as an export keeps it: the query-string names and their texts. */
export type ExportQuery = Readonly<Record<string, string>>

/**
 * How far the worker got writing an export's file, stored with the export in the transaction that
 * writes each batch, so that the next run resumes after the last record written.
 */
export interface ExportProgress {
  /** Where the last batch ended in the list's order (the records port's opaque position); null before the first. */
  readonly after: string | null
  /** Records written so far. */
  readonly rows: number
  /** Bytes of the file so far. */
  readonly bytes: number
  /** Chunks stored so far: the next chunk's `seq`. */
  readonly chunks: number
  /** When the first batch was written: the age of every chunk, from which the file's expiry counts. */
  readonly startedAt: DateTime.Utc | null
}

/** An export's progress before its first batch. */
export const NO_PROGRESS: ExportProgress = { after: null, rows: 0, bytes: 0, chunks: 0, startedAt: null }

/** An export as stored. */
export interface ExportRow {
  /** The account whose records are exported. */
  readonly accountId: number
  /** The export's id (a record id). */
  readonly id: string
  /** The member who asked for it, and whom its notification tells. */
  readonly userId: number
  /** The kind of records exported. */
  readonly kind: ObjectKind
  /** The list query (search, order, direction, complex_filters), validated when asked for. */
  readonly query: ExportQuery
  /** The CSV columns, in order: `_id`, internal_names, `created_at`, `updated_at`. */
  readonly columns: ReadonlyArray<string>
  /** Where it is. */
  readonly status: ExportStatus
  /**
   * How many runs were started: the first claim, and each claim after a worker stopped mid-batch
   * (its lease ran out; the next run resumes from `progress`). Claims between two batches go on
   * with the same run.
   */
  readonly attempts: number
  /** How far the file is written. */
  readonly progress: ExportProgress
  /**
   * Until when a worker holds it for a batch; past that, another worker may start it again. Null
   * when none does (queued, between two batches, or ended).
   */
  readonly leaseUntil: DateTime.Utc | null
  /** Records written (completed exports). */
  readonly rowCount: number | null
  /** Bytes of the file (completed exports). */
  readonly byteSize: number | null
  /** Why it failed (failed exports). */
  readonly failure: string | null
  /** When it was asked for. */
  readonly createdAt: DateTime.Utc
  /** When its status last changed. */
  readonly updatedAt: DateTime.Utc
  /** When its file was written. */
  readonly completedAt: DateTime.Utc | null
  /** When its file stops being downloadable (and the worker deletes it). */
  readonly expiresAt: DateTime.Utc | null
}

/** What a new export is asked with: who, what, and when. */
export type NewExport = Pick<ExportRow, "accountId" | "id" | "userId" | "kind" | "query" | "columns" | "createdAt">

/** A new export as stored: queued, never run. */
export const queuedExport = (asked: NewExport): ExportRow => ({
  ...asked,
  status: "queued",
  attempts: 0,
  progress: NO_PROGRESS,
  leaseUntil: null,
  rowCount: null,
  byteSize: null,
  failure: null,
  updatedAt: asked.createdAt,
  completedAt: null,
  expiresAt: null
})

/** What an export answers: its stored state, or `expired` once its file is gone. */
export const ExportJsonStatus: Schema.Literals<readonly [...typeof EXPORT_STATUSES, "expired"]> = Schema.Literals([
  ...EXPORT_STATUSES,
  "expired"
])

/** An export as the API shows it. */
export const ExportJson: Schema.Struct<{
  readonly _id: Schema.String
  readonly account_id: Schema.Int
  readonly user_id: Schema.Int
  readonly object_type: Schema.String
  readonly status: typeof ExportJsonStatus
  readonly columns: Schema.$Array<Schema.String>
  readonly row_count: Schema.NullOr<Schema.Int>
  readonly byte_size: Schema.NullOr<Schema.Int>
  readonly failure_reason: Schema.NullOr<Schema.String>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
  readonly completed_at: Schema.NullOr<typeof WireTimestamp>
  readonly expires_at: Schema.NullOr<typeof WireTimestamp>
}> = Schema.Struct({
  _id: Schema.String,
  account_id: Schema.Int,
  user_id: Schema.Int,
  object_type: Schema.String.annotate({ description: "the kind exported: contact, company, deal, ticket, invoice or product" }),
  status: ExportJsonStatus,
  columns: Schema.Array(Schema.String),
  row_count: Schema.NullOr(Schema.Int),
  byte_size: Schema.NullOr(Schema.Int),
  failure_reason: Schema.NullOr(Schema.String),
  created_at: WireTimestamp,
  updated_at: WireTimestamp,
  completed_at: Schema.NullOr(WireTimestamp),
  expires_at: Schema.NullOr(WireTimestamp)
}).annotate({ identifier: "Export" })
/** An export as the API shows it. */
export type ExportJson = typeof ExportJson.Type

/** Whether the export's file can no longer be downloaded at `now`. */
export const isExpired = (row: ExportRow, now: DateTime.Utc): boolean =>
  row.expiresAt !== null && !DateTime.isLessThan(now, row.expiresAt)

/** The export as the API shows it at `now`. */
export const exportJson = (row: ExportRow, now: DateTime.Utc): ExportJson => ({
  _id: row.id,
  account_id: row.accountId,
  user_id: row.userId,
  object_type: row.kind,
  status: row.status === "completed" && isExpired(row, now) ? "expired" : row.status,
  columns: row.columns,
  row_count: row.rowCount,
  byte_size: row.byteSize,
  failure_reason: row.failure,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  completed_at: row.completedAt,
  expires_at: row.expiresAt
})
