/**
 * The writes of one record inside the caller's transaction, each with its outbox event: what a
 * single create, update or delete does once its body is validated, shared with the batches so a
 * record written by a batch is stored and announced exactly as a single call would. A deal's or
 * ticket's write also settles its pipeline and stage there (pipeline-rule.ts), so every way of
 * writing one obeys the same rule. Each write appends its property history (property-history.ts)
 * in the same transaction, made by the `HistoryActor` given: the acting user and the source.
 */
import { Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import { eventName, type ObjectKind } from "../records/object-kind.ts"
import { NotFound, type ValidationFailed } from "../errors.ts"
import { isPipelineKind, pipelinesOf } from "../records/pipeline.ts"
import { PipelineRepository } from "../records/pipeline-repository.ts"
import { settlePipeline, writesPipeline } from "../records/pipeline-rule.ts"
import { withCreator } from "../records/created-by.ts"
import { Outbox } from "../events/outbox.ts"
import { type HistoryActor, PropertyHistoryKept, type PropertyHistoryRepository } from "../records/property-history-repository.ts"
import { recordHistories, recordHistory } from "../records/property-history.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { TrashRepository } from "../records/trash-repository.ts"
import { type RecordInsertInput, RecordRepository, type RecordWithDerived } from "../records/record-repository.ts"
import type { RecordJson } from "../records/record-shape.ts"
import type { RecordPatch, StoredValues } from "../records/value-validation.ts"
import { newRecordId } from "../wire/record-id.ts"
import { appendOtherSidesUpdated } from "./link-derivation.ts"
import { appendEvent, findRecord, orNotFound, shapeOf } from "./record-lookup.ts"

/**
 * A deal's or ticket's update with its pipeline and stage settled (pipeline-rule.ts); other kinds'
 * as they are. `current` reads the record's values before the update, only when it touches its
 * pipeline or stage.
 */
const inPipeline = <E>(
  accountId: number,
  kind: ObjectKind,
  current: Effect.Effect<StoredValues, E, RecordRepository>,
  patch: RecordPatch
): Effect.Effect<RecordPatch, E | ValidationFailed, PipelineRepository | RecordRepository> =>
  Effect.gen(function*() {
    if (!isPipelineKind(kind) || !writesPipeline(kind, patch)) return patch
    const pipelines = pipelinesOf(kind, yield* PipelineRepository.use((repo) => repo.list(accountId, kind)))
    return yield* Effect.fromResult(settlePipeline(kind, pipelines, (yield* current), patch))
  })

/**
 * How new records of the kind are settled before they are stored: a deal's or ticket's pipeline
 * and stage (pipeline-rule.ts), the kind's pipelines read once for every record it settles; other
 * kinds' values as they are.
 */
export const newRecordSettler = (
  accountId: number,
  kind: ObjectKind
): Effect.Effect<(values: StoredValues) => Effect.Effect<StoredValues, ValidationFailed>, never, PipelineRepository> =>
  Effect.gen(function*() {
    if (!isPipelineKind(kind)) return Effect.succeed
    const pipelines = pipelinesOf(kind, yield* PipelineRepository.use((repo) => repo.list(accountId, kind)))
    return (values: StoredValues) => Effect.fromResult(settlePipeline(kind, pipelines, undefined, values))
  })

/**
 * Stores new records of settled values (`newRecordSettler`) under fresh ids, made by `actor` (the
 * user is their `created_by`, on the kinds that have one; null: made by no user, e.g. a received
 * message), queues each one's `<kind>-created` event and appends its initial values to its history,
 * in the order given: a batch or an import's rows in a few statements, each record stored and
 * announced as a single create would.
 */
export const insertNewRecords = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  settled: ReadonlyArray<StoredValues>,
  actor: HistoryActor
): Effect.Effect<
  ReadonlyArray<RecordJson>,
  never,
  Outbox | PropertyHistoryRepository | RecordRepository | SecureRandom.SecureRandom
> =>
  Effect.gen(function*() {
    if (settled.length === 0) return []
    const inputs: Array<RecordInsertInput> = []
    for (const values of settled) {
      inputs.push({ accountId, kind, id: yield* newRecordId, custom, values: withCreator(kind, values, actor.userId) })
    }
    const stored = yield* RecordRepository.use((repo) => repo.insertAll(inputs))
    const shapes = stored.map((record) => shapeOf(kind, record, custom))
    const name = eventName(kind, "record", "created")
    yield* Outbox.use((outbox) => outbox.append(shapes.map((payload) => ({ accountId, name, payload }))))
    yield* recordHistories(stored.map(({ record }) => ({ ...actor, accountId, kind, recordId: record._id, before: {}, after: record.values })))
    return shapes
  })

/** Stores a new record of validated values under a fresh id and queues its `<kind>-created` event (`insertNewRecords`). */
export const storeNewRecord = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  values: StoredValues,
  actor: HistoryActor
): Effect.Effect<
  RecordJson,
  ValidationFailed,
  Outbox | PipelineRepository | PropertyHistoryRepository | RecordRepository | SecureRandom.SecureRandom
> =>
  Effect.gen(function*() {
    const settle = yield* newRecordSettler(accountId, kind)
    const [json] = yield* insertNewRecords(accountId, kind, custom, [yield* settle(values)], actor)
    return json!
  })

/**
 * Applies a validated patch to a record of the account made by `actor`, queues its
 * `<kind>-updated` event and appends the values it changed to its history. The values are read
 * first and held (`valuesForUpdate`), so the history measures the change from what it replaced.
 */
export const storeRecordPatch = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  id: string,
  patch: RecordPatch,
  actor: HistoryActor
): Effect.Effect<
  RecordJson,
  NotFound | ValidationFailed,
  Outbox | PipelineRepository | PropertyHistoryRepository | RecordRepository | SecureRandom.SecureRandom
> =>
  Effect.gen(function*() {
    const ref = { accountId, kind, id, custom }
    const before = (yield* PropertyHistoryKept)
      ? yield* orNotFound(yield* RecordRepository.use((repo) => repo.valuesForUpdate(ref)))
      : undefined
    // The values just held serve the pipeline rule too: no second read.
    const current = before !== undefined
      ? Effect.succeed(before)
      : Effect.map(findRecord(accountId, kind, id, custom), (found) => found.record.values)
    patch = yield* inPipeline(accountId, kind, current, patch)
    const updated = yield* orNotFound(yield* (yield* RecordRepository).update({ ...ref, patch }))
    const json = shapeOf(kind, updated, custom)
    yield* appendEvent(accountId, kind, "record", "updated", json)
    if (before !== undefined) yield* recordHistory({ ...actor, accountId, kind, recordId: id, before, after: updated.record.values })
    return json
  })

/**
 * Moves a record found a moment ago (`current`, read in the same transaction) to the trash with
 * its links and notes (trash-repository.ts), and queues its `<kind>-deleted` event carrying it as
 * it was, then the `-updated` event of each record on the other side of its links whose shape
 * showed them (link-derivation.ts), as a link removed would.
 */
export const removeRecord = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  id: string,
  current: RecordWithDerived,
  deletedBy: number | null
): Effect.Effect<RecordJson, NotFound, Outbox | PropertyRepository | RecordRepository | TrashRepository> =>
  Effect.gen(function*() {
    const json = shapeOf(kind, current, custom)
    const trashed = yield* TrashRepository.use((trash) =>
      trash.trash({ accountId, kind, id }, { record: json, deletedBy, mergedInto: null })
    )
    if (Option.isNone(trashed)) return yield* new NotFound()
    yield* appendEvent(accountId, kind, "record", "deleted", json)
    yield* appendOtherSidesUpdated(accountId, kind, id, trashed.value)
    return json
  })
