/**
 * What every write of a record's values appends to its property history, in the write's
 * transaction (`recordHistory`, `recordHistories`): one entry per property whose value it changed,
 * compared in the stored form. A create records its initial values, an update the values it
 * changed (a value set to what it was is no change). Merge and restore append theirs with the
 * same functions, under their own source.
 */
import { DateTime, Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "./object-kind.ts"
import {
  type HistoryActor,
  type HistoryEntry,
  PropertyHistoryKept,
  PropertyHistoryRepository
} from "./property-history-repository.ts"
import type { StoredValue, StoredValues } from "./value-validation.ts"
import { newRecordId } from "../wire/record-id.ts"

/** One record's values before and after a write, and who made it how. */
export interface RecordChange extends HistoryActor {
  /** The record's account. */
  readonly accountId: number
  /** The record's kind. */
  readonly kind: ObjectKind
  /** The record's id. */
  readonly recordId: string
  /** Its stored values before the write (`{}` for a new record). */
  readonly before: StoredValues
  /** Its stored values after it. */
  readonly after: StoredValues
}

/** One property's change: its value after and before (null: none). */
export interface PropertyChange {
  /** The property's internal_name. */
  readonly property: string
  /** The value after the change; null when cleared. */
  readonly value: StoredValue | null
  /** The value before it; null when there was none. */
  readonly previous: StoredValue | null
}

const sameValue = (a: StoredValue, b: StoredValue): boolean => {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((element, i) => element === b[i])
  return a === b
}

/**
 * The properties whose value differs between `before` and `after`: those of `after` in its order
 * (set or changed), then those only `before` has (cleared).
 */
export const changedProperties = (before: StoredValues, after: StoredValues): ReadonlyArray<PropertyChange> => {
  const changes: Array<PropertyChange> = []
  for (const [property, value] of Object.entries(after)) {
    const previous = Object.hasOwn(before, property) ? before[property]! : null
    if (previous === null || !sameValue(previous, value)) changes.push({ property, value, previous })
  }
  for (const [property, previous] of Object.entries(before)) {
    if (!Object.hasOwn(after, property)) changes.push({ property, value: null, previous })
  }
  return changes
}

/**
 * Appends the history of several records' writes in one call (a batch's, an import's), in the
 * caller's transaction: an entry per changed property (`changedProperties`), all at this moment.
 * Nothing when history is not kept (`PropertyHistoryKept`).
 */
export const recordHistories = (
  changes: ReadonlyArray<RecordChange>
): Effect.Effect<void, never, PropertyHistoryRepository | SecureRandom.SecureRandom> =>
  Effect.gen(function*() {
    if (changes.length === 0 || !(yield* PropertyHistoryKept)) return
    const changedAt = yield* DateTime.now
    const entries: Array<HistoryEntry> = []
    for (const change of changes) {
      for (const { previous, property, value } of changedProperties(change.before, change.after)) {
        entries.push({
          _id: yield* newRecordId,
          accountId: change.accountId,
          kind: change.kind,
          recordId: change.recordId,
          property,
          value,
          previousValue: previous,
          source: change.source,
          userId: change.userId,
          changedAt
        })
      }
    }
    if (entries.length > 0) yield* PropertyHistoryRepository.use((repo) => repo.append(entries))
  })

/**
 * Appends the history of one record's write, in the caller's transaction (`recordHistories`).
 *
 * @example
 * ```ts
 * // A merge's kept record took two values of the other.
 * recordHistory({ accountId, kind: "contact", recordId, before, after, userId: principal.userId, source: "merge" })
 * ```
 */
export const recordHistory = (change: RecordChange): Effect.Effect<void, never, PropertyHistoryRepository | SecureRandom.SecureRandom> =>
  recordHistories([change])
