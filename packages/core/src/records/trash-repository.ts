/**
 * The trash: records deleted in the last `WASL_RETENTION_TRASH` (30 days by default), each kept
 * whole — its values, custom values, links, notes and, for a contact, its channel entries — so
 * that a restore brings all of it back. A record in the trash is no longer a record: it is gone
 * from every read, list, search, filter, export, upsert match and link at the moment it is
 * trashed (its row is deleted as a final delete deletes it), and held here apart.
 *
 * Every method takes the account and never sees another account's trash.
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { RecordLinkInput, RecordRef } from "./record-repository.ts"
import type { RecordJson } from "./record-shape.ts"

/** A record in the trash. */
export interface TrashEntry {
  /** The record's kind. */
  readonly kind: ObjectKind
  /** The record's id (kept: a restore brings it back under it). */
  readonly id: string
  /** The record as it was shown when it was deleted (its REST shape). */
  readonly record: RecordJson
  /** When it was deleted. */
  readonly deletedAt: DateTime.Utc
  /** Who deleted it: the acting user, or null (a token without a user, the system). */
  readonly deletedBy: number | null
  /** The record it was merged into, when a merge sent it here. */
  readonly mergedInto: string | null
}

/** What a trash move is told beyond the record: how it was shown, and by whom and why it went. */
export interface TrashMove {
  /** The record's REST shape as it is now, shown by the trash list. */
  readonly record: RecordJson
  /** The acting user (null: none). */
  readonly deletedBy: number | null
  /** The record a merge keeps in its place (null: a plain delete). */
  readonly mergedInto: string | null
}

/** One page of the trash, newest deletion first. */
export interface TrashPage {
  /** The entries of the page. */
  readonly rows: ReadonlyArray<TrashEntry>
  /** How many entries of the kind the account's trash holds. */
  readonly total: number
}

/** What the TrashRepository port offers (implement this to write an adapter). */
export interface TrashRepositoryShape {
  /**
   * Moves the record to the trash: keeps it whole, then deletes it as a final delete does (its
   * links and notes go with it; the other sides' link counts drop). Answers the links it had
   * (each as `link`, `from`, `to`), or `None` when the account has no such record.
   */
  readonly trash: (ref: RecordRef, move: TrashMove) => Effect.Effect<Option.Option<ReadonlyArray<RecordLinkInput>>>
  /**
   * Brings the record back from the trash under its id, with its values (those of custom
   * properties deleted meanwhile left out), notes, channel entries and the links whose other side
   * is a record again; a link to a record still in the trash comes back when that one does, as it
   * is kept with it too. updated_at is the time of the restore. Answers the links restored, or
   * `None` when the trash holds no such record.
   */
  readonly restore: (ref: RecordRef) => Effect.Effect<Option.Option<ReadonlyArray<RecordLinkInput>>>
  /** The entry; `None` when the trash holds no such record. */
  readonly get: (ref: RecordRef) => Effect.Effect<Option.Option<TrashEntry>>
  /** A page of the kind's entries, newest deletion first (then by id). */
  readonly list: (accountId: number, kind: ObjectKind, page: number, perPage: number) => Effect.Effect<TrashPage>
  /** Deletes the entry for good; false when there was none. */
  readonly purge: (ref: RecordRef) => Effect.Effect<boolean>
}

const TrashRepositoryBase: Context.ServiceClass<
  TrashRepository,
  "@wasl/core/TrashRepository",
  TrashRepositoryShape
> = Context.Service<TrashRepository, TrashRepositoryShape>()("@wasl/core/TrashRepository")

/** The account's deleted records, kept whole until they are restored or purged. */
export class TrashRepository extends TrashRepositoryBase {}
