/**
 * The worker's side of CSV exports: each call writes one batch of the export whose account's turn
 * it is.
 *
 * - Claim (its own short transaction): the waiting export whose account's turn is oldest — queued,
 *   running between two batches, or running with its worker dead (its lease ran out and nothing
 *   holds it) — status `running`; a run starts (one attempt more) when it was queued or its lease
 *   ran out.
 * - Write a batch of `EXPORT_BATCH_SIZE` records in a short transaction: hold the export, read the
 *   next records in the list's order after the stored position (`RecordRepository.scanBatch`, by
 *   keyset), turn each into its CSV row as the API shows it, encode, append the batch's bytes as
 *   the file's next chunk and store the progress (position, rows, bytes, chunks), which lets the
 *   export go; the batch that finds no more records marks the export completed instead and tells
 *   the requester (ObjectsExport). Memory stays flat: one batch at a time, however many records.
 *   Between two batches other work runs, also on the embedded database, which runs one
 *   transaction at a time.
 * - Accounts take turns, a batch each (`ExportRepository.claim`): one account's large exports
 *   never hold a worker while another account's export waits.
 * - A worker that dies mid-batch loses that batch (rolled back with its chunk); once the lease has
 *   run out another run resumes after the last batch stored, so the file holds each position of
 *   the order once and is byte for byte what an uninterrupted run writes of the same data. After
 *   `EXPORT_MAX_ATTEMPTS` runs the export fails. A query that no longer validates (a filter on a
 *   property deleted since) fails it at once with the list's message.
 *
 * Consistency: each batch reads the records as they are when it runs, not one snapshot of the
 * whole export. Batches follow the list's order (the ordered property's key, then `_id`; records
 * without a value last), each strictly after the position where the one before ended (the last
 * record's key and `_id`), and the position only moves forward. So, for records changed while an
 * export runs:
 * - a record whose place in that order does not change (not created or deleted, its sort key and
 *   whether it matches unchanged) is written exactly once, in its form when its batch read it;
 * - no record is written twice, except one whose sort key changes after its row was written so
 *   that it moves ahead of the position: it is written again, in its new form, when the export
 *   gets there;
 * - a record created (or starting to match) ahead of the position is written once;
 * - a record is left out if it is deleted or stops matching before its batch reads it, or if it
 *   is created, or moved by a change of its sort key, behind the position. With the default order
 *   (`created_at`, newest first) nothing moves, and records created after the first batch are
 *   left out.
 */
import { DateTime, Duration, Effect, Option } from "effect"
import type { NotificationRepository } from "../account/notification-repository.ts"
import type { UserRepository } from "../account/user-repository.ts"
import { csvRowOf } from "../exports/csv-cells.ts"
import { csvBatch } from "../exports/csv-file.ts"
import type { ExportProgress, ExportRow } from "../exports/export.ts"
import { ExportRepository } from "../exports/export-repository.ts"
import { exportListParams } from "../exports/export-request.ts"
import { publicLink } from "../public-url.ts"
import { PATH_OF_KIND } from "../records/object-kind.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository, type RecordScanBatch, type RecordScanInput } from "../records/record-repository.ts"
import { RetentionPolicy } from "../retention/retention-policy.ts"
import { Transactor } from "../transactor.ts"
import { notifyUser } from "./notify.ts"
import { customOf, shapeOf } from "./record-lookup.ts"

/** How long a claim keeps other workers off an export: a worker that dies mid-batch leaves it this long. */
export const EXPORT_LEASE: Duration.Duration = Duration.minutes(5)
/** Runs an export gets before it fails. */
export const EXPORT_MAX_ATTEMPTS: number = 3
/** Records read, encoded and stored per transaction: a chunk of the file each. */
export const EXPORT_BATCH_SIZE: number = 500

/** The notification's name. */
export const OBJECTS_EXPORT = "ObjectsExport" as const

/** The notification's message. */
export const exportReadyMessage = (row: ExportRow, rowCount: number): string =>
  `Your export of ${rowCount} ${PATH_OF_KIND[row.kind]} is ready to download.`

/** The services a run needs. */
export type ExportRunServices =
  | ExportRepository
  | RecordRepository
  | PropertyRepository
  | NotificationRepository
  | UserRepository
  | Transactor

/** What a batch writes: the claimed export and its query as parsed now. */
interface BatchPlan {
  readonly row: ExportRow
  readonly scan: RecordScanInput
  readonly batchSize: number
}

/** The bytes a batch adds to the file (none for a last, empty batch) and the progress after them. */
const nextChunk = (plan: BatchPlan, progress: ExportProgress, batch: RecordScanBatch) =>
  Effect.gen(function*() {
    const { custom, kind } = plan.scan
    const cells = batch.rows.map((record) => csvRowOf(shapeOf(kind, record, custom), plan.row.columns))
    const bytes = yield* csvBatch(cells, progress.chunks === 0 ? plan.row.columns : null)
    const next: ExportProgress = {
      after: batch.after,
      rows: progress.rows + batch.rows.length,
      bytes: progress.bytes + bytes.length,
      chunks: progress.chunks + (bytes.length > 0 ? 1 : 0),
      startedAt: progress.startedAt ?? (yield* DateTime.now)
    }
    return { bytes, next }
  })

/**
 * One batch in its own transaction (the caller's): holds the export, writes the records after its
 * stored progress as the next chunk and stores the progress, letting the export go, or completes
 * the export when no more follow. Writes nothing when the export is no longer this run's.
 */
const writeBatch = (plan: BatchPlan) =>
  Effect.gen(function*() {
    const { row } = plan
    const progress = row.progress
    const repo = yield* ExportRepository
    if (!(yield* repo.hold(row.accountId, row.id, row.attempts))) return
    const batch = yield* RecordRepository.use((records) => records.scanBatch(plan.scan, progress.after, plan.batchSize))
    const { bytes, next } = yield* nextChunk(plan, progress, batch)
    // The chunks' age for the retention and the file's expiry count from the same instant, so the
    // pruner never deletes a chunk of a file that can still be downloaded.
    const writtenAt = next.startedAt!
    if (bytes.length > 0) {
      yield* repo.appendChunk({ accountId: row.accountId, exportId: row.id, seq: progress.chunks, bytes, writtenAt })
    }
    const now = yield* DateTime.now
    if (batch.rows.length === plan.batchSize) return yield* repo.advance(row.accountId, row.id, next, now)
    yield* repo.complete(row.accountId, row.id, {
      rowCount: next.rows,
      byteSize: next.bytes,
      completedAt: now,
      expiresAt: DateTime.addDuration(writtenAt, (yield* RetentionPolicy).exports)
    })
    const message = exportReadyMessage(row, next.rows)
    yield* notifyUser(row.accountId, row.userId, {
      type: OBJECTS_EXPORT,
      data: { export_id: row.id, object_type: row.kind, row_count: next.rows, message },
      mail: {
        subject: "Your export is ready",
        text: [message, "", `Download it with GET ${yield* publicLink(`/api/exports/${row.id}/download`)}.`].join("\n")
      }
    })
  })

/** Writes the next batch of the claimed export from its stored progress (see the module comment). */
const writeNextBatch = (row: ExportRow, batchSize: number) =>
  Effect.gen(function*() {
    const custom = yield* customOf(row.accountId, row.kind)
    const params = yield* exportListParams(row.kind, row.query, custom)
    const plan: BatchPlan = { row, scan: { accountId: row.accountId, kind: row.kind, custom, ...params }, batchSize }
    yield* (yield* Transactor).transaction(writeBatch(plan))
  })

/**
 * Claims the export whose account's turn it is and writes its next batch (see the module
 * comment), `batchSize` records in one transaction. Answers whether there was one, so a worker
 * runs it again at once while there was. A failure of the database is a defect: its batch is
 * rolled back, and the export resumed once its lease runs out.
 */
export const runNextExport: (batchSize?: number) => Effect.Effect<boolean, never, ExportRunServices> = Effect.fn(
  "runNextExport"
)(function*(batchSize: number = EXPORT_BATCH_SIZE) {
  const repo = yield* ExportRepository
  const now = yield* DateTime.now
  const claimed = yield* repo.claim(now, DateTime.addDuration(now, EXPORT_LEASE))
  if (Option.isNone(claimed)) return false
  const row = claimed.value
  if (row.attempts > EXPORT_MAX_ATTEMPTS) {
    yield* repo.fail(row.accountId, row.id, `The export was started ${EXPORT_MAX_ATTEMPTS} times without finishing.`, now)
    return true
  }
  yield* writeNextBatch(row, Math.max(1, Math.floor(batchSize))).pipe(
    Effect.catchTag("ValidationFailed", (invalid) =>
      Effect.flatMap(DateTime.now, (at) =>
        repo.fail(
          row.accountId,
          row.id,
          `The export's query is no longer valid: ${Object.values(invalid.errors).flat().join(" ")}`,
          at
        )))
  )
  return true
})
