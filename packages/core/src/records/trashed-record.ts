/**
 * A record in the trash as the trash list shows it: its `_id`, when and by whom it was deleted,
 * the record a merge kept in its place (or null), when the worker purges it (its deletion plus
 * `WASL_RETENTION_TRASH`), and the record as it was shown when deleted.
 */
import { DateTime, type Duration, Schema } from "effect"
import { formatWireTimestamp, WireTimestampString } from "../wire/timestamp.ts"
import type { TrashEntry } from "./trash-repository.ts"

/** A trash entry as the JSON sent. */
export const TrashedRecordJson: Schema.Struct<{
  readonly _id: Schema.String
  readonly deleted_at: Schema.String
  readonly deleted_by: Schema.NullOr<Schema.Int>
  readonly merged_into: Schema.NullOr<Schema.String>
  readonly expires_at: Schema.String
  readonly record: Schema.$Record<Schema.String, Schema.Unknown>
}> = Schema.Struct({
  _id: Schema.String,
  deleted_at: WireTimestampString,
  deleted_by: Schema.NullOr(Schema.Int).annotate({ description: "The user who deleted it (null: none)" }),
  merged_into: Schema.NullOr(Schema.String).annotate({ description: "The record a merge kept in its place" }),
  expires_at: WireTimestampString.annotate({ description: "When the worker purges it for good" }),
  record: Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "The record's REST shape when it was deleted" })
}).annotate({ identifier: "TrashedRecord" })

/** A trash entry as the JSON sent. */
export type TrashedRecordJson = typeof TrashedRecordJson.Type

/** The entry as shown, `retention` being how long the trash keeps it. */
export const trashedRecordJson = (entry: TrashEntry, retention: Duration.Duration): TrashedRecordJson => ({
  _id: entry.id,
  deleted_at: formatWireTimestamp(entry.deletedAt),
  deleted_by: entry.deletedBy,
  merged_into: entry.mergedInto,
  expires_at: formatWireTimestamp(DateTime.addDuration(entry.deletedAt, retention)),
  record: entry.record as unknown as Record<string, unknown>
})
