/**
 * The worker's side of CSV exports: one run writes the next export waiting.
 *
 * - Claim (its own short transaction): the oldest queued export, or a running one whose worker
 *   died (its lease ran out and nothing holds it) — status `running`, one attempt more.
 * - Write (one transaction): hold the export, read the records through the list's order
 *   (`RecordRepository.scan`, a cursor on PostgreSQL, a batch at a time), turn each into its CSV
 *   row as the API shows it, encode, and store the file in pieces of `EXPORT_CHUNK_BYTES`; then
 *   mark it completed and tell the requester (ObjectsExport). Memory stays flat: a batch of
 *   records and one piece of the file at a time, however many records.
 * - A worker that dies mid-run loses nothing but time: the transaction rolls back (no partial
 *   file), and once the lease has run out another run starts over. After `EXPORT_MAX_ATTEMPTS`
 *   runs the export fails. A query that no longer validates (a filter on a property deleted since)
 *   fails it at once with the list's message.
 *
 * The one transaction is what makes a run all or nothing and lets the cursor read one snapshot.
 * On PostgreSQL it blocks nobody (the export reads; it writes only its own rows). On the embedded
 * database, which runs one transaction at a time, it makes other requests wait while it runs.
 */
import { DateTime, Duration, Effect, Option, Stream } from "effect"
import { NotificationRepository } from "../account/notification-repository.ts"
import { csvRowOf } from "../exports/csv-cells.ts"
import { csvFile, writeInPieces } from "../exports/csv-file.ts"
import type { ExportRow } from "../exports/export.ts"
import { ExportRepository } from "../exports/export-repository.ts"
import { exportListParams } from "../exports/export-request.ts"
import { PATH_OF_KIND } from "../records/object-kind.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository } from "../records/record-repository.ts"
import { RetentionPolicy } from "../retention/retention-policy.ts"
import { Transactor } from "../transactor.ts"
import { notifyUser } from "./notify-user.ts"
import { customOf, shapeOf } from "./record-lookup.ts"

/** How long a claim keeps other workers off an export before its run holds it. */
export const EXPORT_LEASE: Duration.Duration = Duration.minutes(5)
/** Runs an export gets before it fails. */
export const EXPORT_MAX_ATTEMPTS: number = 3
/** The size of the pieces a file is stored in: 1 MiB. */
export const EXPORT_CHUNK_BYTES: number = 1024 * 1024
/** Records read per batch. */
const SCAN_BATCH = 500

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
  | Transactor

/** Writes the claimed export in one transaction; false when another run has it since. */
const writeExport = (row: ExportRow, progress: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const repo = yield* ExportRepository
    if (!(yield* repo.hold(row.accountId, row.id, row.attempts))) return false
    const custom = yield* customOf(row.accountId, row.kind)
    const params = yield* exportListParams(row.kind, row.query, custom)
    // The pieces' age for the retention and the file's expiry count from the same instant, so
    // the pruner never deletes a piece of a file that can still be downloaded.
    const writtenAt = yield* DateTime.now
    let rowCount = 0
    const rows = RecordRepository.use((records) =>
      Effect.succeed(records.scan({ accountId: row.accountId, kind: row.kind, custom, ...params }, SCAN_BATCH))
    ).pipe(
      Stream.unwrap,
      Stream.flattenIterable,
      Stream.map((record) => {
        rowCount++
        return csvRowOf(shapeOf(row.kind, record, custom), row.columns)
      })
    )
    const written = yield* writeInPieces(csvFile(row.columns, rows), EXPORT_CHUNK_BYTES, (bytes, seq) =>
      Effect.andThen(
        repo.appendChunk({ accountId: row.accountId, exportId: row.id, seq, bytes, writtenAt }),
        progress
      ))
    const completedAt = yield* DateTime.now
    yield* repo.complete(row.accountId, row.id, {
      rowCount,
      byteSize: written.bytes,
      completedAt,
      expiresAt: DateTime.addDuration(writtenAt, (yield* RetentionPolicy).exports)
    })
    const message = exportReadyMessage(row, rowCount)
    yield* notifyUser(row.accountId, row.userId, {
      type: OBJECTS_EXPORT,
      data: { export_id: row.id, object_type: row.kind, row_count: rowCount, message },
      mail: {
        subject: "Your export is ready",
        text: [message, "", `Download it with GET /api/exports/${row.id}/download.`].join("\n")
      }
    })
    return true
  })

/**
 * Claims the next export waiting and writes it (see the module comment); `progress` runs after
 * every piece stored (a heartbeat for a long run). Answers whether there was one to run, so a
 * worker runs it again at once while there was. A failure of the database is a defect: the run is
 * rolled back and tried again once its lease runs out.
 */
export const runNextExport: (
  progress?: Effect.Effect<void>
) => Effect.Effect<boolean, never, ExportRunServices> = Effect.fn("runNextExport")(function*(
  progress: Effect.Effect<void> = Effect.void
) {
  const repo = yield* ExportRepository
  const now = yield* DateTime.now
  const claimed = yield* repo.claim(now, DateTime.addDuration(now, EXPORT_LEASE))
  if (Option.isNone(claimed)) return false
  const row = claimed.value
  if (row.attempts > EXPORT_MAX_ATTEMPTS) {
    yield* repo.fail(row.accountId, row.id, `The export was started ${EXPORT_MAX_ATTEMPTS} times without finishing.`, now)
    return true
  }
  const transactor = yield* Transactor
  yield* transactor.transaction(writeExport(row, progress)).pipe(
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
