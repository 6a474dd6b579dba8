/**
 * The ExportRepository port: export rows and the chunks of their CSV files, per account.
 *
 * The worker writes an export a batch at a time: `claim` (its own short transaction, so the status
 * `running` shows at once), then a short transaction that `hold`s the export, appends the batch's
 * chunk and `advance`s its progress, which lets the export go; the last batch `complete`s it
 * instead. Accounts take turns, a batch each (see `claim`). A worker that dies mid-batch loses
 * that batch (rolled back with its chunk); once the lease has run out another worker claims the
 * export and resumes from the stored progress.
 */
import { Context, type DateTime, type Effect, type Option, type Stream } from "effect"
import type { ExportProgress, ExportRow, NewExport } from "./export.ts"

/** What a completed export records. */
export interface ExportCompletion {
  /** Records written. */
  readonly rowCount: number
  /** Bytes of the file. */
  readonly byteSize: number
  /** When it was written. */
  readonly completedAt: DateTime.Utc
  /** When the download stops. */
  readonly expiresAt: DateTime.Utc
}

/** One chunk of an export's file. */
export interface ExportChunk {
  /** The account. */
  readonly accountId: number
  /** The export. */
  readonly exportId: string
  /** Its place in the file, from 0. */
  readonly seq: number
  /** The bytes. */
  readonly bytes: Uint8Array
  /** Its age for the retention: when the run writing it began (the export's expiry less the retention). */
  readonly writtenAt: DateTime.Utc
}

/** What the ExportRepository port offers (implement this to write an adapter). */
export interface ExportRepositoryShape {
  /** Stores a queued export. */
  readonly insert: (row: NewExport) => Effect.Effect<void>
  /** The account's export; `None` for an id it has none of. */
  readonly get: (accountId: number, id: string) => Effect.Effect<Option.Option<ExportRow>>
  /**
   * Takes, for one batch, an export waiting for a worker — queued, running between two batches, or
   * running with its lease run out and not held by a batch — skipping ones another claimer holds:
   * status `running`, leased until `leaseUntil`, one more attempt when this starts a run (it was
   * queued, or its worker stopped mid-batch: the lease ran out). Answers it as updated, or `None`
   * when there is nothing to do.
   *
   * Accounts take turns: the export taken is the one whose account's turn is oldest, and an
   * account's exports go oldest first. An export's turn starts when it is asked for, or behind the
   * account's other waiting exports. A claim puts the account's waiting exports at `leaseUntil`,
   * so that while it is held every other account's export is claimed first (another worker takes
   * another account's, or the same account's next export when no other waits); `advance`,
   * `complete` and `fail` put them at the batch's end, behind every account that waited meanwhile.
   */
  readonly claim: (now: DateTime.Utc, leaseUntil: DateTime.Utc) => Effect.Effect<Option.Option<ExportRow>>
  /**
   * Inside a batch's transaction: holds the export until the transaction ends, so no other worker
   * claims it meanwhile even once the lease runs out. False when it is no longer this run's
   * (another run claimed it since: `attempts` moved on, or it is no longer running).
   */
  readonly hold: (accountId: number, id: string, attempts: number) => Effect.Effect<boolean>
  /** Appends a chunk of the file. */
  readonly appendChunk: (chunk: ExportChunk) => Effect.Effect<void>
  /**
   * Stores how far the file is written after the batch that ended at `now`, and lets the export go
   * (no worker holds it; the account's turn is `now`).
   */
  readonly advance: (accountId: number, id: string, progress: ExportProgress, now: DateTime.Utc) => Effect.Effect<void>
  /** Marks the export completed; the account's turn is its `completedAt`. */
  readonly complete: (accountId: number, id: string, completion: ExportCompletion) => Effect.Effect<void>
  /**
   * Marks the export failed, with the reason shown to its requester; its chunks are deleted. The
   * account's turn is `now`.
   */
  readonly fail: (accountId: number, id: string, reason: string, now: DateTime.Utc) => Effect.Effect<void>
  /**
   * The file: its chunks in order, each read when the stream wants it, so a download holds one
   * chunk at a time. Empty when they are gone.
   */
  readonly chunks: (accountId: number, id: string) => Stream.Stream<Uint8Array>
}

const ExportRepositoryBase: Context.ServiceClass<
  ExportRepository,
  "@wasl/core/ExportRepository",
  ExportRepositoryShape
> = Context.Service<ExportRepository, ExportRepositoryShape>()("@wasl/core/ExportRepository")

/** Export rows and their files' chunks, per account (see {@link ExportRepositoryShape}). */
export class ExportRepository extends ExportRepositoryBase {}
