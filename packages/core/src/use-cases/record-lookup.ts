/**
 * What the record use-cases (CRUD, lists, links, notes) share: the account's custom definitions
 * of a kind, finding a record of the account (404 otherwise), its REST shape, and queueing its
 * record event in the caller's transaction.
 */
import { Effect, Option, Schema } from "effect"
import type { ObjectKind } from "../records/object-kind.ts"
import { NotFound } from "../errors.ts"
import { Outbox, type OutboxEvent } from "../events/outbox.ts"
import { filterablePropertiesOf } from "../records/builtin-properties.ts"
import { validateComplexFilters } from "../records/complex-filter.ts"
import { type EventAction, eventName, type EventSubject } from "../records/object-kind.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository, type RecordWithDerived } from "../records/record-repository.ts"
import { type RecordJson, recordJson } from "../records/record-shape.ts"
import { RecordId } from "../wire/record-id.ts"

/** Whether `input` has the form of a record id (24 lowercase hexadecimal characters). */
export const isRecordId: <I>(input: I) => input is I & RecordId = Schema.is(RecordId)

/** The account's custom property definitions of the kind. */
export const customOf = (
  accountId: number,
  kind: ObjectKind
): Effect.Effect<ReadonlyArray<PropertyDefinition>, never, PropertyRepository> =>
  PropertyRepository.use((repo) => repo.list(accountId, kind))

/** The record's REST shape, given the kind's custom definitions. */
export const shapeOf = (kind: ObjectKind, found: RecordWithDerived, custom: ReadonlyArray<PropertyDefinition>): RecordJson =>
  recordJson(kind, found.record, custom, found.derived)

/** The value of a `Some`; {@link NotFound} for a `None`. */
export const orNotFound = <A>(option: Option.Option<A>): Effect.Effect<A, NotFound> =>
  Option.match(option, { onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })

/** The stored record of the account and kind, or NotFound (a malformed id included). */
export const findRecord = (
  accountId: number,
  kind: ObjectKind,
  id: string,
  custom: ReadonlyArray<PropertyDefinition>
): Effect.Effect<RecordWithDerived, NotFound, RecordRepository> =>
  isRecordId(id)
    ? Effect.flatMap(RecordRepository.use((repo) => repo.get({ accountId, kind, id, custom })), orNotFound)
    : Effect.fail(new NotFound())

/** Whether `property` is one a record can be found by (a filterable property of the kind). */
export const isMatchProperty = (kind: ObjectKind, custom: ReadonlyArray<PropertyDefinition>, property: string): boolean =>
  filterablePropertiesOf(kind, custom).some((p) => p.internal_name === property)

/** What looking a record up by a property's value found. */
export type RecordWithValue =
  | { readonly _tag: "one"; readonly record: RecordWithDerived }
  | { readonly _tag: "none" }
  | { readonly _tag: "many" }
  | { readonly _tag: "invalid" }

/**
 * The record of the account whose `property` has `value`, as a batch upsert and an import with
 * `match_on` find the record to update: `none` when no record has it, `many` when more than one
 * does, `invalid` when the value cannot be compared with the property's values.
 */
export const recordWithValue = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  property: string,
  value: unknown
): Effect.Effect<
  RecordWithValue,
  never,
  RecordRepository
> =>
  Effect.gen(function*() {
    const parsed = yield* Effect.result(
      validateComplexFilters([{ property, operator: "eq", value }], filterablePropertiesOf(kind, custom))
    )
    if (parsed._tag === "Failure") return { _tag: "invalid" as const }
    const matches = yield* RecordRepository.use((repo) =>
      repo.list({ accountId, kind, custom, page: 1, perPage: 2, search: undefined, order: "created_at", direction: "asc", filters: parsed.success })
    )
    if (matches.total > 1) return { _tag: "many" as const }
    const first = matches.rows[0]
    return first === undefined ? { _tag: "none" as const } : { _tag: "one" as const, record: first }
  })

/** Queues one event of the kind in the current transaction. */
export const appendEvent = (
  accountId: number,
  kind: ObjectKind,
  subject: EventSubject,
  action: EventAction,
  payload: unknown
): Effect.Effect<ReadonlyArray<OutboxEvent>, never, Outbox> => Outbox.use((outbox) => outbox.append([{ accountId, name: eventName(kind, subject, action), payload }]))

/** The REST shapes now of records of the account (each must exist: a missing one is a defect), the kind's definitions read once. */
export const currentShapes = (
  accountId: number,
  kind: ObjectKind,
  ids: ReadonlyArray<string>
): Effect.Effect<Array<RecordJson>, never, PropertyRepository | RecordRepository> =>
  Effect.gen(function*() {
    const custom = yield* customOf(accountId, kind)
    return yield* Effect.forEach(ids, (id) =>
      Effect.map(Effect.orDie(findRecord(accountId, kind, id, custom)), (found) => shapeOf(kind, found, custom)))
  })

/** Queues the `-updated` event of each of these records of the account, with its shape now. */
export const appendRecordsUpdated = (
  accountId: number,
  kind: ObjectKind,
  ids: ReadonlyArray<string>
): Effect.Effect<void, never, Outbox | PropertyRepository | RecordRepository> =>
  Effect.flatMap(currentShapes(accountId, kind, ids), (shapes) =>
    Effect.forEach(shapes, (shape) => appendEvent(accountId, kind, "record", "updated", shape), { discard: true }))
