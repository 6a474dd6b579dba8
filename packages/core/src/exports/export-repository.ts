/**
 * The ExportRepository port: export rows and the chunks of their CSV files, per account.
 *
 * A run of the worker goes: `claim` (its own short transaction, so the status `running` shows at
 * once), then one transaction that `hold`s the export for the whole run, appends its chunks and
 * `complete`s it. A worker that dies mid-run rolls back every chunk it wrote and releases the hold;
 * once the claim's lease has run out another worker claims the export again and starts over.
 */
import { Context, type DateTime, type Effect, type Option, type Stream } from "effect"
import type { ExportRow, NewExport } from "./export.ts"

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
   * Takes the oldest export waiting for a worker — queued, or running with its lease run out and
   * not held by a run — skipping ones another claimer holds: status `running`, one more attempt,
   * leased until `leaseUntil`. Answers it as updated, or `None` when there is nothing to do.
   */
  readonly claim: (now: DateTime.Utc, leaseUntil: DateTime.Utc) => Effect.Effect<Option.Option<ExportRow>>
  /**
   * Inside the run's transaction: holds the export until the transaction ends, so no other worker
   * claims it even once the lease runs out. False when it is no longer this run's (another run
   * claimed it since: `attempts` moved on, or it is no longer running).
   */
  readonly hold: (accountId: number, id: string, attempts: number) => Effect.Effect<boolean>
  /** Appends a chunk of the file. */
  readonly appendChunk: (chunk: ExportChunk) => Effect.Effect<void>
  /** Marks the export completed. */
  readonly complete: (accountId: number, id: string, completion: ExportCompletion) => Effect.Effect<void>
  /** Marks the export failed, with the reason shown to its requester; its chunks are deleted. */
  readonly fail: (accountId: number, id: string, reason: string, now: DateTime.Utc) => Effect.Effect<void>
  /**
   * The file: its chunks in order, each read when the stream wants it, so a download holds one
   * chunk at a time. Empty when they are gone.
   */
  readonly chunks: (accountId: number, id: string) => Stream.Stream<Uint8Array>
}

/** @ignore */
export const ExportRepositoryBase: Context.ServiceClass<
  ExportRepository,
  "@wasl/core/ExportRepository",
  ExportRepositoryShape
> = Context.Service<ExportRepository, ExportRepositoryShape>()("@wasl/core/ExportRepository")

/** Export rows and their files' chunks, per account (see {@link ExportRepositoryShape}). */
export class ExportRepository extends ExportRepositoryBase {}
