/**
 * The writes of one record inside the caller's transaction, each with its outbox event: what a
 * single create, update or delete does once its body is validated, shared with the batches so a
 * record written by a batch is stored and announced exactly as a single call would. A deal's or
 * ticket's write also settles its pipeline and stage there (pipeline-rule.ts), so every way of
 * writing one obeys the same rule.
 */
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../records/object-kind.ts"
import { NotFound, type ValidationFailed } from "../errors.ts"
import { isPipelineKind, pipelinesOf } from "../records/pipeline.ts"
import { PipelineRepository } from "../records/pipeline-repository.ts"
import { settlePipeline, writesPipeline } from "../records/pipeline-rule.ts"
import { withCreator } from "../records/created-by.ts"
import type { Outbox } from "../events/outbox.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import { RecordRepository, type RecordWithDerived } from "../records/record-repository.ts"
import type { RecordJson } from "../records/record-shape.ts"
import type { RecordPatch, StoredValues } from "../records/value-validation.ts"
import { newRecordId } from "../wire/record-id.ts"
import { appendEvent, findRecord, orNotFound, shapeOf } from "./record-lookup.ts"

/**
 * A deal's or ticket's write with its pipeline and stage settled (pipeline-rule.ts); other kinds'
 * as they are. `current` reads the record before an update, only when the write touches its
 * pipeline or stage.
 */
const inPipeline = <W extends RecordPatch, E = never>(
  accountId: number,
  kind: ObjectKind,
  current: Effect.Effect<RecordWithDerived, E, RecordRepository> | undefined,
  write: W
): Effect.Effect<W, E | ValidationFailed, PipelineRepository | RecordRepository> =>
  Effect.gen(function*() {
    if (!isPipelineKind(kind)) return write
    if (current !== undefined && !writesPipeline(kind, write)) return write
    const pipelines = pipelinesOf(kind, yield* PipelineRepository.use((repo) => repo.list(accountId, kind)))
    const before = current === undefined ? undefined : (yield* current).record.values
    return yield* Effect.fromResult(settlePipeline(kind, pipelines, before, write))
  })

/**
 * Stores a new record of validated values under a fresh id, made by the user `createdBy` (its
 * `created_by`, on the kinds that have one; null: made by no user, e.g. a received message), and
 * queues its `<kind>-created` event.
 */
export const storeNewRecord = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  values: StoredValues,
  createdBy: number | null
): Effect.Effect<RecordJson, ValidationFailed, Outbox | PipelineRepository | RecordRepository | SecureRandom.SecureRandom> =>
  Effect.gen(function*() {
    values = yield* inPipeline(accountId, kind, undefined, values)
    const id = yield* newRecordId
    const stored = yield* (yield* RecordRepository).insert({ accountId, kind, id, custom, values: withCreator(kind, values, createdBy) })
    const json = shapeOf(kind, stored, custom)
    yield* appendEvent(accountId, kind, "record", "created", json)
    return json
  })

/** Applies a validated patch to a record of the account and queues its `<kind>-updated` event. */
export const storeRecordPatch = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  id: string,
  patch: RecordPatch
): Effect.Effect<RecordJson, NotFound | ValidationFailed, Outbox | PipelineRepository | RecordRepository> =>
  Effect.gen(function*() {
    patch = yield* inPipeline(accountId, kind, findRecord(accountId, kind, id, custom), patch)
    const updated = yield* orNotFound(yield* (yield* RecordRepository).update({ accountId, kind, id, custom, patch }))
    const json = shapeOf(kind, updated, custom)
    yield* appendEvent(accountId, kind, "record", "updated", json)
    return json
  })

/**
 * Deletes a record found a moment ago (`current`, read in the same transaction) with its links
 * and notes, and queues its `<kind>-deleted` event carrying it as it was.
 */
export const removeRecord = (
  accountId: number,
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>,
  id: string,
  current: RecordWithDerived
): Effect.Effect<RecordJson, NotFound, Outbox | RecordRepository> =>
  Effect.gen(function*() {
    if (!(yield* (yield* RecordRepository).delete({ accountId, kind, id }))) return yield* new NotFound()
    const json = shapeOf(kind, current, custom)
    yield* appendEvent(accountId, kind, "record", "deleted", json)
    return json
  })
