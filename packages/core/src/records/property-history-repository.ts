/**
 * The history of records' property values: one entry per property whose value a write changed,
 * with its new and previous value (stored form, null for none), when, by whom and how.
 *
 * Entries are kept by account, kind and record id, not tied to the live record: a record moved
 * out of the live table keeps its history until it is purged (`purge`). Every method takes the
 * account and never sees another account's entries. The retention (`Retention`, kind `history`)
 * deletes entries older than `WASL_RETENTION_HISTORY`.
 */
import { Context, type DateTime, type Effect, Schema } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { PageParams } from "./pagination.ts"
import { StoredValue } from "./value-validation.ts"
import { formatWireTimestamp, WireTimestampString } from "../wire/timestamp.ts"

/** How a change was made: one API call, a batch, a CSV import, a merge, a restore, or Wasl itself. */
export const HISTORY_SOURCES = ["api", "batch", "import", "merge", "restore", "system"] as const

/** How a change was made (`HISTORY_SOURCES`). */
export type HistorySource = typeof HISTORY_SOURCES[number]

/** Who made a change and how: the acting user (null: no user, a token of none or Wasl itself) and the source. */
export interface HistoryActor {
  /** The acting user's id; null when no user acted. */
  readonly userId: number | null
  /** How the change was made. */
  readonly source: HistorySource
}

/** One change of one property of one record, as stored. */
export interface HistoryEntry {
  /** The entry's id (a record id). */
  readonly _id: string
  /** The record's account. */
  readonly accountId: number
  /** The record's kind. */
  readonly kind: ObjectKind
  /** The record's id. */
  readonly recordId: string
  /** The property's internal_name. */
  readonly property: string
  /** The value after the change (stored form); null when it was cleared. */
  readonly value: StoredValue | null
  /** The value before the change; null when it had none (a create, or a first value). */
  readonly previousValue: StoredValue | null
  /** How the change was made. */
  readonly source: HistorySource
  /** The acting user's id (it may name a user since removed); null when no user acted. */
  readonly userId: number | null
  /** When the change was made: the time of its transaction's write. */
  readonly changedAt: DateTime.Utc
}

/** Which record's history to read, a page of it, of one property or all. */
export interface HistoryPageInput extends PageParams {
  /** The record's account. */
  readonly accountId: number
  /** The record's kind. */
  readonly kind: ObjectKind
  /** The record's id. */
  readonly recordId: string
  /** Only this property's entries; undefined: every property's. */
  readonly property?: string | undefined
}

/** One page of a record's history. */
export interface HistoryPage {
  /** The entries of the page, newest first. */
  readonly rows: ReadonlyArray<HistoryEntry>
  /** The number of entries over all pages. */
  readonly total: number
}

/** What the PropertyHistoryRepository port offers (implement this to write an adapter). */
export interface PropertyHistoryRepositoryShape {
  /**
   * Stores the entries (in the caller's transaction, when there is one, so they stand or fall with
   * the change they record). Entries appended later are newer than earlier ones of the same
   * `changedAt`; among one call's entries, the later in the list is the newer.
   */
  readonly append: (entries: ReadonlyArray<HistoryEntry>) => Effect.Effect<void>
  /** A page of the record's entries, newest first (`changedAt`, then the order they were appended), with the total. */
  readonly page: (input: HistoryPageInput) => Effect.Effect<HistoryPage>
  /** Deletes every entry of the record (it left the trash for good); answers how many. */
  readonly purge: (accountId: number, kind: ObjectKind, recordId: string) => Effect.Effect<number>
}

const PropertyHistoryRepositoryBase: Context.ServiceClass<
  PropertyHistoryRepository,
  "@wasl/core/PropertyHistoryRepository",
  PropertyHistoryRepositoryShape
> = Context.Service<PropertyHistoryRepository, PropertyHistoryRepositoryShape>()("@wasl/core/PropertyHistoryRepository")

/** The history of records' property values, per account (another account's entries are never seen). */
export class PropertyHistoryRepository extends PropertyHistoryRepositoryBase {}

/**
 * Whether the record writes keep history (default: yes). Only a measurement turns it off, to
 * price what keeping it costs a write (bench/writes.ts); the product always keeps it.
 */
export const PropertyHistoryKept: Context.Reference<boolean> = Context.Reference<boolean>(
  "@wasl/core/PropertyHistoryKept",
  { defaultValue: () => true }
)

/** One entry as `GET /api/{kind}/{_id}/history` answers it. */
export interface HistoryEntryJson {
  /** The entry's id. */
  readonly _id: string
  /** The property's internal_name. */
  readonly property: string
  /** The value after the change (stored form); null when it was cleared. */
  readonly value: StoredValue | null
  /** The value before it; null when there was none. */
  readonly previous_value: StoredValue | null
  /** How the change was made. */
  readonly source: HistorySource
  /** The acting user's id; null when no user acted. */
  readonly user_id: number | null
  /** When (`YYYY-MM-DDTHH:MM:SS.ffffffZ`). */
  readonly changed_at: string
}

/** The schema of {@link HistoryEntryJson}, for the API's answers and its document. */
export const HistoryEntryJson: Schema.Struct<{
  readonly _id: Schema.String
  readonly property: Schema.String
  readonly value: Schema.NullOr<typeof StoredValue>
  readonly previous_value: Schema.NullOr<typeof StoredValue>
  readonly source: Schema.Literals<typeof HISTORY_SOURCES>
  readonly user_id: Schema.NullOr<Schema.Int>
  readonly changed_at: Schema.String
}> = Schema.Struct({
  _id: Schema.String,
  property: Schema.String,
  value: Schema.NullOr(StoredValue),
  previous_value: Schema.NullOr(StoredValue),
  source: Schema.Literals(HISTORY_SOURCES),
  user_id: Schema.NullOr(Schema.Int),
  changed_at: WireTimestampString
}).annotate({
  identifier: "HistoryEntry",
  description: "One change of one property value of a record: the value after and before it (null: none), how " +
    "(api, batch, import, merge, restore, system), by which user (null: none) and when."
})

/** The entry in its REST shape. */
export const historyEntryJson = (entry: HistoryEntry): HistoryEntryJson => ({
  _id: entry._id,
  property: entry.property,
  value: entry.value,
  previous_value: entry.previousValue,
  source: entry.source,
  user_id: entry.userId,
  changed_at: formatWireTimestamp(entry.changedAt)
})
