/**
 * Records batches: `POST /api/{kind}/batch/create`, `batch/update`, `batch/delete` and
 * `batch/upsert`, each with a body `{ inputs: [...] }` of 1 to 100 inputs.
 *
 * - One transaction for the whole batch: all inputs are written or none. Inputs are taken in
 *   order (an upsert sees the records the inputs before it created).
 * - Each input is validated as its single call validates its body, the same messages keyed
 *   under the input (`inputs.3.email`); every bad input is reported at once. An `id` the account
 *   has no record of is a 422 on `inputs.N.id` (the batch's URL exists, so not a 404).
 * - Each record written fires the event its single call fires (`<kind>-created`, `-updated`,
 *   `-deleted`), one per record, in the batch's transaction.
 * - Permissions: those of the single calls; an upsert needs both `<kind>-create` and
 *   `<kind>-update`.
 */
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Permission } from "../auth/permission.ts"
import { lockMatches } from "../records/match-lock.ts"
import type { ObjectKind } from "../records/object-kind.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, invalid, type NotFound, type ValidationFailed } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import {
  ambiguousUpsertKey,
  type BatchInput,
  inputProperties,
  inputText,
  parseBatchInputs,
  underInput
} from "../records/batch-input.ts"
import { ErrorBag, ownValue } from "../records/body-input.ts"
import type { PipelineRepository } from "../records/pipeline-repository.ts"
import type { HistoryActor, PropertyHistoryRepository } from "../records/property-history-repository.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { RecordRepository } from "../records/record-repository.ts"
import type { RecordJson } from "../records/record-shape.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { type StoredValues, validateRecordCreate, validateRecordUpdate } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import type { TrashRepository } from "../records/trash-repository.ts"
import { authorize } from "./authenticate.ts"
import { customOf, findRecord, isMatchProperty, recordWithValue } from "./record-lookup.ts"
import { insertNewRecords, newRecordSettler, removeRecord, storeNewRecord, storeRecordPatch } from "./record-writes.ts"

/** The services a batch needs. */
export type BatchServices =
  | Outbox
  | PipelineRepository
  | PropertyHistoryRepository
  | PropertyRepository
  | RecordRepository
  | SecureRandom.SecureRandom
  | Transactor
  | TrashRepository

/** What the batch use-cases take: who asks, the kind, and the request's JSON body. */
export type Batch<A> = (
  principal: Principal,
  kind: ObjectKind,
  body: unknown
) => Effect.Effect<ReadonlyArray<A>, Forbidden | ValidationFailed, BatchServices>

/**
 * One input's part of a batch, in the batch's transaction: it reads and validates the input
 * (failing with its keys under `at`) and answers the write to run if the batch is still valid.
 */
type Step = (
  custom: ReadonlyArray<PropertyDefinition>,
  input: BatchInput,
  at: string
) => Effect.Effect<
  Effect.Effect<RecordJson, NotFound | ValidationFailed, Exclude<BatchServices, Transactor>>,
  ValidationFailed,
  Exclude<BatchServices, Transactor>
>

/** Who writes a batch's records: the caller, through a batch. */
const batchActor = (principal: Principal): HistoryActor => ({ userId: principal.userId, source: "batch" })

/** The input's own validation, its failure keyed under the input. */
const under = <A, R>(at: string, effect: Effect.Effect<A, ValidationFailed, R>) =>
  Effect.mapError(effect, (failure) => underInput(at, failure))

/** The stored record the input's `id` names, or a 422 on `inputs.N.id`. */
const recordNamed = (accountId: number, kind: ObjectKind, custom: ReadonlyArray<PropertyDefinition>, input: BatchInput, at: string) =>
  Effect.gen(function*() {
    const id = yield* inputText(input, "id", at)
    const found = yield* Effect.mapError(findRecord(accountId, kind, id, custom), () => invalid(`${at}.id`, LaravelMessage.selectedInvalid(`${at}.id`)))
    return { id, found }
  })

/** Adds a failure's messages to the batch's, and goes on with the next input. */
const collectInto = (bag: ErrorBag) => (failure: ValidationFailed) =>
  Effect.sync(() => {
    for (const [key, messages] of Object.entries(failure.errors)) for (const m of messages) bag.add(key, m)
    return undefined
  })

/**
 * Runs a batch: authorizes, reads the inputs, then takes them in order in one transaction. Once
 * an input is invalid no more writes run (the rest are only validated) and the transaction rolls
 * back with every input's messages.
 */
const runBatch = (
  principal: Principal,
  kind: ObjectKind,
  body: unknown,
  permissions: ReadonlyArray<Permission>,
  step: (accountId: number) => Step
): Effect.Effect<ReadonlyArray<RecordJson>, Forbidden | ValidationFailed, BatchServices> =>
  Effect.gen(function*() {
    for (const permission of permissions) yield* authorize(principal, permission)
    const inputs = yield* parseBatchInputs(body)
    const transactor = yield* Transactor
    return yield* transactor.transaction(Effect.gen(function*() {
      const custom = yield* customOf(principal.accountId, kind)
      const take = step(principal.accountId)
      const bag = new ErrorBag()
      const fail = collectInto(bag)
      const written: Array<RecordJson> = []
      for (const [i, input] of inputs.entries()) {
        const at = `inputs.${i}`
        const write = yield* Effect.catchTag(take(custom, input, at), "ValidationFailed", fail)
        if (write === undefined || !bag.isEmpty) continue
        // The record went away between its read and its write (a concurrent delete): as unknown.
        // The pipeline rule refused the write: its keys under the input, as its validation's.
        const json = yield* write.pipe(
          Effect.catchTag("NotFound", () => fail(invalid(`${at}.id`, LaravelMessage.selectedInvalid(`${at}.id`)))),
          Effect.catchTag("ValidationFailed", (refused) => fail(underInput(at, refused)))
        )
        if (json !== undefined) written.push(json)
      }
      if (!bag.isEmpty) return yield* Effect.fail(bag.toFailure())
      return written
    }))
  })

/**
 * `POST /api/{kind}/batch/create`: creates a record from each input's `properties` (the body of
 * a single create), in order. Needs `<kind>-create`. Answers the records' REST shapes, in the
 * inputs' order. Every input is validated first; then all are stored together
 * (`insertNewRecords`), in a few statements rather than one write per record.
 */
export const createRecords: Batch<RecordJson> = Effect.fn("createRecords")(function*(principal, kind, body) {
  yield* authorize(principal, `${kind}-create`)
  const inputs = yield* parseBatchInputs(body)
  return yield* (yield* Transactor).transaction(Effect.gen(function*() {
    const accountId = principal.accountId
    const custom = yield* customOf(accountId, kind)
    const settle = yield* newRecordSettler(accountId, kind)
    const bag = new ErrorBag()
    const settled: Array<StoredValues> = []
    for (const [i, input] of inputs.entries()) {
      const at = `inputs.${i}`
      const values = yield* Effect.catchTag(
        Effect.flatMap(inputProperties(input, at), (properties) => under(at, Effect.flatMap(validateRecordCreate(kind, properties, custom), settle))),
        "ValidationFailed",
        collectInto(bag)
      )
      if (values !== undefined) settled.push(values)
    }
    if (!bag.isEmpty) return yield* Effect.fail(bag.toFailure())
    return yield* insertNewRecords(accountId, kind, custom, settled, batchActor(principal))
  }))
})

/**
 * `POST /api/{kind}/batch/update`: sets some values (`properties`, the body of a single update)
 * of the record each input's `id` names. Needs `<kind>-update`. Answers the updated records.
 */
export const updateRecords: Batch<RecordJson> = Effect.fn("updateRecords")(function*(principal, kind, body) {
  return yield* runBatch(principal, kind, body, [`${kind}-update`], (accountId) => (custom, input, at) =>
    Effect.gen(function*() {
      const { id } = yield* recordNamed(accountId, kind, custom, input, at)
      const properties = yield* inputProperties(input, at)
      const patch = yield* under(at, validateRecordUpdate(kind, properties, custom))
      return storeRecordPatch(accountId, kind, custom, id, patch, batchActor(principal))
    }))
})

/**
 * `POST /api/{kind}/batch/delete`: deletes the record each input's `id` names, with its links
 * and notes. Needs `<kind>-delete`. Answers the ids deleted, in the inputs' order.
 */
export const deleteRecords: Batch<string> = Effect.fn("deleteRecords")(function*(principal, kind, body) {
  const deleted = yield* runBatch(principal, kind, body, [`${kind}-delete`], (accountId) => (custom, input, at) =>
    Effect.map(
      recordNamed(accountId, kind, custom, input, at),
      ({ found, id }) => removeRecord(accountId, kind, custom, id, found, principal.userId)
    ))
  return deleted.map((json) => json.properties._id)
})

/**
 * `POST /api/{kind}/batch/upsert`: for each input, the record whose `id_property` (the input's,
 * else the body's) has the value `id` is updated with `properties`; when there is none, one is
 * created from `properties` with `id_property` set to `id`. A value more than one record has is
 * a 422 on `inputs.N.id`; a name that is not a property of the kind, on the `id_property` given.
 * Needs `<kind>-create` and `<kind>-update`. Answers the records, in the inputs' order.
 */
export const upsertRecords: Batch<RecordJson> = Effect.fn("upsertRecords")(function*(principal, kind, body) {
  const shared = typeof body === "object" && body !== null ? ownValue(body, "id_property") : undefined
  return yield* runBatch(principal, kind, body, [`${kind}-create`, `${kind}-update`], (accountId) => {
    // Held until the batch commits: a concurrent upsert of the same new value waits, then finds it.
    // Taken once, by the first input that looks a value up, before the batch writes anything, so
    // it never waits while holding what a writer it waits for needs (a counter row of the kind).
    let locked = false
    const lock = Effect.suspend(() =>
      locked ? Effect.void : Effect.andThen(lockMatches(accountId, kind), Effect.sync(() => void (locked = true)))
    )
    return (custom, input, at) =>
      Effect.gen(function*() {
        const idProperty = yield* inputText(input, "id_property", at, shared)
        const id = yield* inputText(input, "id", at)
        const properties = yield* inputProperties(input, at)
        if (!isMatchProperty(kind, custom, idProperty)) {
          const key = ownValue(input, "id_property") === undefined && shared !== undefined ? "id_property" : `${at}.id_property`
          return yield* Effect.fail(invalid(key, LaravelMessage.selectedInvalid(key)))
        }
        yield* lock
        const existing = yield* recordWithValue(accountId, kind, custom, idProperty, id)
        if (existing._tag === "invalid") return yield* Effect.fail(invalid(`${at}.id`, LaravelMessage.selectedInvalid(`${at}.id`)))
        if (existing._tag === "many") return yield* Effect.fail(invalid(`${at}.id`, ambiguousUpsertKey(`${at}.id`)))
        if (existing._tag === "none") {
          const values = yield* under(at, validateRecordCreate(kind, { ...properties, [idProperty]: id }, custom))
          return storeNewRecord(accountId, kind, custom, values, batchActor(principal))
        }
        const patch = yield* under(at, validateRecordUpdate(kind, properties, custom))
        return storeRecordPatch(accountId, kind, custom, existing.record.record._id, patch, batchActor(principal))
      })
  })
})

