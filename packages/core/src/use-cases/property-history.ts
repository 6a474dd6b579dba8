/**
 * Property history: what every write of a record's values appends, in the write's transaction
 * (`recordHistory`, `recordHistories`), and `GET /api/{kind}/{_id}/history`.
 *
 * A write appends one entry per property whose value it changed, compared in the stored form: a
 * create its initial values, an update the values it changed (a value set to what it was is no
 * change). Merge and restore append theirs with the same function, under their own source.
 */
import { DateTime, Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, type NotFound, ValidationFailed } from "../errors.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import type { ObjectKind } from "../records/object-kind.ts"
import { type Page, parsePageParams } from "../records/pagination.ts"
import {
  type HistoryActor,
  type HistoryEntry,
  historyEntryJson,
  type HistoryEntryJson,
  PropertyHistoryKept,
  PropertyHistoryRepository
} from "../records/property-history-repository.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { RecordRepository } from "../records/record-repository.ts"
import type { StoredValue, StoredValues } from "../records/value-validation.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { customOf, findRecord } from "./record-lookup.ts"

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

/** What is wrong with `property` of the query (a string when given: one property's name). */
const propertyErrors = (query: ListQueryInput): Record<string, Array<string>> => {
  const value = Object.hasOwn(query, "property") ? query.property : undefined
  return value === undefined || value === null || typeof value === "string"
    ? {}
    : { property: [LaravelMessage.string("property")] }
}

/**
 * `GET /api/{kind}/{_id}/history`: one page (`page`, `per_page`) of the record's property changes,
 * newest first, of one property when the query names it (`property`). Needs `<kind>-show`. Fails
 * {@link Forbidden} without it, {@link NotFound} for a record the account does not have,
 * {@link ValidationFailed} for a bad `page`, `per_page` or `property`.
 */
export const listHistory: (
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  query: ListQueryInput
) => Effect.Effect<
  Page<HistoryEntryJson>,
  Forbidden | NotFound | ValidationFailed,
  PropertyHistoryRepository | PropertyRepository | RecordRepository
> = Effect.fn("listHistory")(function*(
  principal: Principal,
  kind: ObjectKind,
  recordId: string,
  query: ListQueryInput
) {
  yield* authorize(principal, `${kind}-show`)
  yield* findRecord(principal.accountId, kind, recordId, yield* customOf(principal.accountId, kind))
  // Every bad key of the query at once, as a list's.
  const wrong = propertyErrors(query)
  const params = yield* Effect.mapError(parsePageParams(query), (failure) => new ValidationFailed({ errors: { ...failure.errors, ...wrong } }))
  if (Object.keys(wrong).length > 0) return yield* Effect.fail(new ValidationFailed({ errors: wrong }))
  const property = typeof query.property === "string" ? query.property : undefined
  const page = yield* PropertyHistoryRepository.use((repo) =>
    repo.page({ accountId: principal.accountId, kind, recordId, property, ...params })
  )
  return { items: page.rows.map(historyEntryJson), total: page.total, ...params } satisfies Page<HistoryEntryJson>
})
