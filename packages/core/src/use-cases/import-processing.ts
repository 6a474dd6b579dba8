/**
 * CSV imports, the worker's side: claims an import for one batch and writes its next staged rows
 * as records, in one transaction. Each transaction writes the batch's records with their
 * `<kind>-created` / `<kind>-updated` events AND moves the import's place (`nextLine`) and counts,
 * so a worker that dies mid-batch leaves nothing of that batch, and the next claimer (once the
 * claim runs out) starts again at that batch: no row is written twice, none skipped.
 *
 * Accounts take turns, a batch each: the batch's commit lets the import go, and the next claim
 * takes the import whose account's turn is oldest (`ImportRepository.claim`). So one account's
 * large imports never hold a worker while another account's import waits: that one is written
 * after at most a batch of each account ahead of it, and with several workers each writes another
 * account's import while there is one.
 *
 * The batch's new records are stored together, a few statements for all of them and their events
 * (`insertNewRecords`), each as `POST /api/{kind}` stores one; a row that updates or matches first
 * stores those before it, so events and lookups follow the rows' order.
 *
 * A row is validated exactly as `POST /api/{kind}` (or, when it updates, `PUT /api/{kind}/{_id}`)
 * validates a body: the row's non-empty cells keyed by their columns (an empty cell sets nothing,
 * and keeps an updated record's value). With `match_on`, the record whose property has the row's
 * value is updated; none → a record is created; more than one → the row is refused. A refused row
 * keeps its 422 messages and never stops the others.
 *
 * When the last batch is written the import is `completed`, and its uploader gets the
 * `ObjectsImport` notification on the channels they chose, in that same transaction. An import
 * whose `match_on` property was deleted meanwhile is `failed`, with its reason, and told the same way.
 */
import { Data, DateTime, Duration, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { NotificationRepository } from "../account/notification-repository.ts"
import type { UserRepository } from "../account/user-repository.ts"
import type { ValidationFailed } from "../errors.ts"
import { invalid } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import type { ImportJob, ImportRow, RowErrors } from "../imports/import-job.ts"
import { ImportRepository } from "../imports/import-repository.ts"
import { publicLink } from "../public-url.ts"
import { ambiguousUpsertKey } from "../records/batch-input.ts"
import { lockMatches } from "../records/match-lock.ts"
import { PATH_OF_KIND } from "../records/object-kind.ts"
import type { PipelineRepository } from "../records/pipeline-repository.ts"
import type { HistoryActor, PropertyHistoryRepository } from "../records/property-history-repository.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { RecordRepository } from "../records/record-repository.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { type StoredValues, validateRecordCreate, validateRecordUpdate } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import { notifyUser } from "./notify.ts"
import { customOf, isMatchProperty, recordWithValue } from "./record-lookup.ts"
import { insertNewRecords, newRecordSettler, storeRecordPatch } from "./record-writes.ts"

/** The notification's name. */
export const OBJECTS_IMPORT = "ObjectsImport" as const

/** The services the worker's import loop needs. */
export type ImportProcessingServices =
  | ImportRepository
  | NotificationRepository
  | Outbox
  | PipelineRepository
  | PropertyHistoryRepository
  | PropertyRepository
  | RecordRepository
  | SecureRandom.SecureRandom
  | Transactor
  | UserRepository

/** How an import is written: rows per transaction and how long a claim lasts. */
export interface ImportProcessingOptions {
  /** Rows per transaction. Default 500. */
  readonly batch?: number | undefined
  /** How long a claim holds without its batch committed: a crashed worker's import waits this long. Default 1 minute. */
  readonly lease?: Duration.Duration | undefined
}

/** Another worker took the import over (its claim ran out) and wrote this batch: roll it back. */
class ImportTakenOver extends Data.TaggedError("ImportTakenOver")<{}> {}

/** The row as a request body: its non-empty cells keyed by their columns. */
const bodyOf = (columns: ReadonlyArray<string>, row: ImportRow): Record<string, string> => {
  const body: Record<string, string> = {}
  for (const [i, column] of columns.entries()) {
    const cell = row.cells[i] ?? ""
    if (cell !== "") body[column] = cell
  }
  return body
}

type RowOutcome = "created" | "updated" | { readonly errors: RowErrors }

/**
 * The records a batch creates, kept until they are stored together (`insertNewRecords`): before
 * a row updates a record or looks one up by `match_on`, so its event follows theirs and its
 * lookup finds them, as it would row by row; else once, at the batch's end.
 */
interface PendingCreates {
  /** Keeps a record to create. */
  readonly add: (values: StoredValues) => void
  /** Stores the records kept so far, with their events. */
  readonly store: Effect.Effect<unknown, never, Outbox | PropertyHistoryRepository | RecordRepository | SecureRandom.SecureRandom>
}

/** Who writes an import's records: the user who started it, through the import. */
const importActor = (job: ImportJob): HistoryActor => ({ userId: job.userId, source: "import" })

const pendingCreates = (job: ImportJob, custom: ReadonlyArray<PropertyDefinition>): PendingCreates => {
  const values: Array<StoredValues> = []
  return {
    add: (v) => void values.push(v),
    store: Effect.suspend(() => insertNewRecords(job.accountId, job.kind, custom, values.splice(0), importActor(job)))
  }
}

/**
 * Writes one row: an update when `match_on` finds its record (at once), else a record to create
 * (kept with the batch's other creates), or refuses it.
 */
const writeRow = (
  job: ImportJob,
  custom: ReadonlyArray<PropertyDefinition>,
  settle: (values: StoredValues) => Effect.Effect<StoredValues, ValidationFailed>,
  pending: PendingCreates,
  row: ImportRow
) =>
  Effect.gen(function*() {
    const { accountId, kind, matchOn } = job
    const body = bodyOf(job.columns, row)
    const value = matchOn === null ? undefined : body[matchOn]
    if (matchOn !== null && value !== undefined) {
      yield* pending.store
      const found = yield* recordWithValue(accountId, kind, custom, matchOn, value)
      if (found._tag === "invalid") return yield* invalid(matchOn, LaravelMessage.selectedInvalid(matchOn))
      if (found._tag === "many") return yield* invalid(matchOn, ambiguousUpsertKey(matchOn))
      if (found._tag === "one") {
        const patch = yield* validateRecordUpdate(kind, body, custom)
        yield* Effect.catchTag(
          storeRecordPatch(accountId, kind, custom, found.record.record._id, patch, importActor(job)),
          "NotFound",
          // Deleted between its lookup and its write (a concurrent delete).
          () => Effect.fail(invalid(matchOn, LaravelMessage.selectedInvalid(matchOn)))
        )
        return "updated" as const
      }
    }
    pending.add(yield* settle(yield* validateRecordCreate(kind, body, custom)))
    return "created" as const
  }).pipe(Effect.catchTag("ValidationFailed", (failure: ValidationFailed) => Effect.succeed({ errors: failure.errors } as RowOutcome)))

/** The notification's message: what became of the file. */
export const importMessage = (job: ImportJob): string =>
  job.status === "failed"
    ? `The import of ${job.fileName} into ${PATH_OF_KIND[job.kind]} failed: ${job.reason ?? "unknown reason"}`
    : `The import of ${job.fileName} into ${PATH_OF_KIND[job.kind]} is complete: ${job.created} created, ${job.updated} updated, ${job.failed} failed.`

/** Ends the import and tells its uploader, in the caller's transaction. */
const finishImport = (job: ImportJob, status: "completed" | "failed", reason: string | null) =>
  Effect.gen(function*() {
    const repo = yield* ImportRepository
    const now = yield* DateTime.now
    yield* repo.finish(job.accountId, job.id, status, reason, now)
    const ended = Option.getOrThrow(yield* repo.find(job.accountId, job.id))
    const message = importMessage(ended)
    yield* notifyUser(job.accountId, job.userId, {
      type: OBJECTS_IMPORT,
      data: {
        import_id: ended.id,
        object_type: ended.kind,
        status: ended.status,
        rows_total: ended.rowsTotal,
        created: ended.created,
        updated: ended.updated,
        failed: ended.failed,
        message
      },
      mail: {
        subject: status === "completed" ? "Import complete" : "Import failed",
        text: [
          message,
          "",
          `GET ${yield* publicLink(`/api/${PATH_OF_KIND[job.kind]}/imports/${job.id}`)} shows it; /errors lists the refused rows as CSV.`
        ].join("\n")
      }
    })
  })

/**
 * Writes the next batch of an import the caller claimed, from its place (`job.nextLine`), in one
 * transaction that also lets the import go; the last batch completes it. Does nothing when another
 * worker took the import over meanwhile (its claim ran out) and wrote that batch.
 */
export const processImportBatch = (
  job: ImportJob,
  options: ImportProcessingOptions = {}
): Effect.Effect<void, never, ImportProcessingServices> =>
  Effect.flatMap(Transactor, (transactor) => transactor.transaction(Effect.gen(function*() {
    const batch = options.batch ?? 500
    const repo = yield* ImportRepository
    const custom = yield* customOf(job.accountId, job.kind)
    if (job.matchOn !== null && !isMatchProperty(job.kind, custom, job.matchOn)) {
      return yield* finishImport(job, "failed", `the property ${job.matchOn} that rows match on no longer exists.`)
    }
    // Held until the batch commits, as a batch upsert holds it, so neither creates a record the
    // other just did; taken before the batch writes anything, so it never waits while holding what
    // a writer it waits for needs (a counter row of the kind).
    if (job.matchOn !== null) yield* lockMatches(job.accountId, job.kind)
    const from = job.nextLine
    const rows = yield* repo.rows(job.accountId, job.id, from, batch)
    const settle = yield* newRecordSettler(job.accountId, job.kind)
    const pending = pendingCreates(job, custom)
    let created = 0
    let updated = 0
    const failures: Array<{ line: number; errors: RowErrors }> = []
    for (const row of rows) {
      const outcome = yield* writeRow(job, custom, settle, pending, row)
      if (outcome === "created") created++
      else if (outcome === "updated") updated++
      else failures.push({ line: row.line, errors: outcome.errors })
    }
    yield* pending.store
    const nextLine = rows.length === 0 ? from : rows[rows.length - 1]!.line + 1
    const moved = yield* repo.advance(job.accountId, job.id, { from, nextLine, created, updated, failures, now: yield* DateTime.now })
    if (!moved) return yield* new ImportTakenOver()
    if (rows.length < batch) yield* finishImport(job, "completed", null)
  }))).pipe(Effect.catchTag("ImportTakenOver", () => Effect.void))

/**
 * Claims the import whose account's turn it is (queued, between two batches, or left by a crashed
 * worker once its claim ran out) and writes its next batch. Answers whether there was one: a worker
 * calls it again at once while there was.
 */
export const processNextImport = (
  options: ImportProcessingOptions = {}
): Effect.Effect<boolean, never, ImportProcessingServices> =>
  Effect.gen(function*() {
    const now = yield* DateTime.now
    const lease = options.lease ?? Duration.minutes(1)
    const claimed = yield* ImportRepository.use((repo) => repo.claim(now, DateTime.addDuration(now, lease)))
    if (Option.isNone(claimed)) return false
    yield* processImportBatch(claimed.value, options)
    return true
  })
