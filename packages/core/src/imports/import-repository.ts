/** The port of CSV imports: the imports, their staged rows and the worker's claim on them. */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { ObjectKind } from "../records/object-kind.ts"
import type { FailedRow, ImportJob, ImportRow, RowErrors } from "./import-job.ts"

/** A new import, stored as its file is read (status `queued`, no rows yet). */
export interface NewImport {
  /** Its id (24 hex). */
  readonly id: string
  /** The account it writes into. */
  readonly accountId: number
  /** Who uploads it. */
  readonly userId: number
  /** The kind of its records. */
  readonly kind: ObjectKind
  /** The file's name. */
  readonly fileName: string
  /** The header row. */
  readonly columns: ReadonlyArray<string>
  /** When it was uploaded. */
  readonly now: DateTime.Utc
}

/** What one batch of an import did, committed with the records it wrote. */
export interface ImportProgress {
  /** The `nextLine` the batch started from: the write is refused if the import moved on meanwhile. */
  readonly from: number
  /** The line after the batch's last row. */
  readonly nextLine: number
  /** Records the batch created. */
  readonly created: number
  /** Records the batch updated. */
  readonly updated: number
  /** The rows it refused, with their messages (kept for the status and the errors CSV). */
  readonly failures: ReadonlyArray<{ readonly line: number; readonly errors: RowErrors }>
  /** When the batch committed: the account's turn from then on. */
  readonly now: DateTime.Utc
}

/** What the {@link ImportRepository} port offers (implement this to write an adapter). */
export interface ImportRepositoryShape {
  /** Stores a new import, `queued`, without rows. */
  readonly create: (job: NewImport) => Effect.Effect<void>
  /** Stages rows of the import (lines unique within it). */
  readonly appendRows: (accountId: number, id: string, rows: ReadonlyArray<ImportRow>) => Effect.Effect<void>
  /** Sets what the whole file told: its number of data rows and the property rows match on. */
  readonly setStaged: (accountId: number, id: string, rowsTotal: number, matchOn: string | null) => Effect.Effect<void>
  /** The account's import; None for another account's or none. */
  readonly find: (accountId: number, id: string) => Effect.Effect<Option.Option<ImportJob>>
  /**
   * Claims, for one batch, a `queued` or `running` import that no worker holds (none claimed it,
   * the last batch let it go, or a crashed worker's claim ran out): it becomes `running`, claimed
   * until `leaseUntil`. Workers never claim the same one at once (FOR UPDATE SKIP LOCKED on
   * PostgreSQL).
   *
   * Accounts take turns: the import claimed is the one whose account's turn is oldest, and an
   * account's imports go oldest first. An import's turn starts when it is uploaded, or behind the
   * account's other waiting imports. A claim puts the account's waiting imports at `leaseUntil`,
   * so that while it is held every other account's import is claimed first (another worker takes
   * another account's, or the same account's next import when no other waits); `advance` and
   * `finish` put them at the batch's end, behind every account that waited meanwhile.
   */
  readonly claim: (now: DateTime.Utc, leaseUntil: DateTime.Utc) => Effect.Effect<Option.Option<ImportJob>>
  /** Up to `limit` staged rows of the import from `fromLine` on, by line. */
  readonly rows: (accountId: number, id: string, fromLine: number, limit: number) => Effect.Effect<ReadonlyArray<ImportRow>>
  /**
   * Records a batch's progress: moves `nextLine`, adds the counts, keeps the failures' messages,
   * drops the batch's other rows (written: their staged copies are no longer needed) and lets the
   * import go (no worker holds it; the account's turn is `now`). False (and nothing written) when
   * the import's `nextLine` is no longer `from`: another worker took it over and wrote the batch.
   */
  readonly advance: (accountId: number, id: string, progress: ImportProgress) => Effect.Effect<boolean>
  /** Ends the import: `completed`, or `failed` with its reason; the account's turn is `now`. */
  readonly finish: (
    accountId: number,
    id: string,
    status: "completed" | "failed",
    reason: string | null,
    now: DateTime.Utc
  ) => Effect.Effect<void>
  /** Up to `limit` refused rows of the import after `afterLine`, by line. */
  readonly failedRows: (
    accountId: number,
    id: string,
    afterLine: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<FailedRow>>
}

const ImportRepositoryBase: Context.ServiceClass<ImportRepository, "@wasl/core/ImportRepository", ImportRepositoryShape> =
  Context.Service<ImportRepository, ImportRepositoryShape>()("@wasl/core/ImportRepository")

/**
 * CSV imports and their staged rows, per account; the worker's claims across accounts. Its
 * operations: {@link ImportRepositoryShape}.
 */
export class ImportRepository extends ImportRepositoryBase {}
