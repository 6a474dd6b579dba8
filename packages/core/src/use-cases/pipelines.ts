/**
 * Pipelines of deals and tickets (`/api/{deals|tickets}/pipelines`).
 *
 * - Reads need `<kind>-index` or `property-manage` (as properties); writes `property-manage`.
 * - A kind's pipelines are its default one (`_id` `default`: built in until the account changes
 *   it) followed by the account's, oldest first. The default one can be changed, not deleted (403).
 * - An update replaces the name and the stages (renaming, reordering and adding keep every
 *   record where it is). Removing a stage that records are in, or deleting a pipeline that
 *   records are in, is a 422 unless `move_to` names a stage to move them to (for a deleted
 *   pipeline: a stage of another pipeline); they then move in the same transaction, each with its
 *   `<kind>-updated` event. Pipelines themselves fire no event (no event names them).
 * - Pipeline writes of an account and kind take the kind's match lock, one after another, so two
 *   of them never both pass the check that a stage name is free, or move records past each other.
 */
import { DateTime, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import type { HistoryActor, PropertyHistoryRepository } from "../records/property-history-repository.ts"
import { type Forbidden, forbidden, invalid, NotFound, type ValidationFailed } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import { filterablePropertiesOf, PIPELINE_PROPERTY, STAGE_PROPERTY } from "../records/builtin-properties.ts"
import { validateComplexFilters } from "../records/complex-filter.ts"
import { lockMatches } from "../records/match-lock.ts"
import { DEFAULT_PIPELINE_ID, type Pipeline, type PipelineKind, pipelinesOf, stageNames } from "../records/pipeline.ts"
import { validatePipelineBody } from "../records/pipeline-body.ts"
import { PipelineRepository } from "../records/pipeline-repository.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository } from "../records/record-repository.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { authorizePropertyRead } from "./properties.ts"
import { customOf } from "./record-lookup.ts"
import { storeRecordPatch } from "./record-writes.ts"

/** The 403 message for deleting a kind's default pipeline. */
export const DEFAULT_PIPELINE_KEPT = "The default pipeline cannot be deleted."

/** The 422 message (on `stages`) for removing stages that records are in, without `move_to`. */
export const stagesInUse = (stages: ReadonlyArray<string>): string =>
  `The stages ${stages.join(", ")} still hold records: give move_to, the stage to move them to.`

/** The 422 message (on `_id`) for deleting a pipeline that records are in, without `move_to`. */
export const PIPELINE_IN_USE = "The pipeline still holds records: give move_to, a stage of another pipeline to move them to."

/** The services the pipeline use-cases need. */
export type PipelineServices =
  | PipelineRepository
  | PropertyHistoryRepository
  | PropertyRepository
  | RecordRepository
  | Outbox
  | Transactor
  | SecureRandom.SecureRandom

const pipelinesNow = (accountId: number, kind: PipelineKind) =>
  Effect.map(PipelineRepository.use((repo) => repo.list(accountId, kind)), (stored) => pipelinesOf(kind, stored))

const findIn = (pipelines: ReadonlyArray<Pipeline>, id: string): Effect.Effect<Pipeline, NotFound> =>
  Option.match(Option.fromNullishOr(pipelines.find((p) => p._id === id)), {
    onNone: () => Effect.fail(new NotFound()),
    onSome: Effect.succeed
  })

/** The stage names of every pipeline but `id`. */
const stagesOfOthers = (pipelines: ReadonlyArray<Pipeline>, id: string | undefined): ReadonlySet<string> =>
  new Set(pipelines.filter((p) => p._id !== id).flatMap(stageNames))

/** The pipeline a stage belongs to. */
const pipelineOfStage = (pipelines: ReadonlyArray<Pipeline>, stage: string): Pipeline | undefined =>
  pipelines.find((p) => stageNames(p).includes(stage))

/** The account's records of the kind matching one condition on `property`: a page of them and their total. */
const recordsWhere = (
  accountId: number,
  kind: PipelineKind,
  custom: ReadonlyArray<PropertyDefinition>,
  condition: { readonly property: string; readonly operator: "in" | "eq"; readonly value: unknown },
  perPage: number
) =>
  Effect.gen(function*() {
    const filters = yield* Effect.orDie(validateComplexFilters([condition], filterablePropertiesOf(kind, custom)))
    return yield* RecordRepository.use((repo) =>
      repo.list({ accountId, kind, custom, page: 1, perPage, search: undefined, order: "created_at", direction: "asc", filters })
    )
  })

/**
 * Moves every record of the kind matching the condition to the stage `moveTo` (and its pipeline),
 * each with its `-updated` event. A moved record no longer matches, so the first page is read
 * again until none is left.
 */
const moveRecords = (
  accountId: number,
  kind: PipelineKind,
  condition: { readonly property: string; readonly operator: "in" | "eq"; readonly value: unknown },
  target: Pipeline,
  moveTo: string,
  actor: HistoryActor
) =>
  Effect.gen(function*() {
    const custom = yield* customOf(accountId, kind)
    const patch = { [PIPELINE_PROPERTY]: target._id, [STAGE_PROPERTY[kind]]: moveTo }
    for (;;) {
      const page = yield* recordsWhere(accountId, kind, custom, condition, 100)
      if (page.rows.length === 0) return
      for (const row of page.rows) {
        yield* Effect.orDie(storeRecordPatch(accountId, kind, custom, row.record._id, patch, actor))
      }
    }
  })

/**
 * `GET /api/{kind}/pipelines`: the kind's pipelines, the default one first. Needs `<kind>-index`
 * or `property-manage` (else {@link Forbidden}).
 */
export const listPipelines: (
  principal: Principal,
  kind: PipelineKind
) => Effect.Effect<ReadonlyArray<Pipeline>, Forbidden, PipelineRepository> = Effect.fn("listPipelines")(
  function*(principal: Principal, kind: PipelineKind) {
    yield* authorizePropertyRead(principal, kind)
    return yield* pipelinesNow(principal.accountId, kind)
  }
)

/** `GET /api/{kind}/pipelines/{_id}`: one pipeline ({@link NotFound} for another account's or none). */
export const getPipeline: (
  principal: Principal,
  kind: PipelineKind,
  id: string
) => Effect.Effect<Pipeline, Forbidden | NotFound, PipelineRepository> = Effect.fn("getPipeline")(
  function*(principal: Principal, kind: PipelineKind, id: string) {
    yield* authorizePropertyRead(principal, kind)
    return yield* findIn(yield* pipelinesNow(principal.accountId, kind), id)
  }
)

/**
 * `POST /api/{kind}/pipelines`: creates a pipeline from `{ name, stages }`. Needs
 * `property-manage`. Fails {@link ValidationFailed} for a bad body or a stage name another
 * pipeline of the kind has.
 */
export const createPipeline: (
  principal: Principal,
  kind: PipelineKind,
  body: unknown
) => Effect.Effect<Pipeline, Forbidden | ValidationFailed, PipelineServices> = Effect.fn("createPipeline")(
  function*(principal: Principal, kind: PipelineKind, body: unknown) {
    yield* authorize(principal, "property-manage")
    const accountId = principal.accountId
    return yield* (yield* Transactor).transaction(Effect.gen(function*() {
      yield* lockMatches(accountId, kind)
      const pipelines = yield* pipelinesNow(accountId, kind)
      const input = yield* validatePipelineBody(kind, body, stagesOfOthers(pipelines, undefined), false)
      const now = yield* DateTime.now
      const pipeline: Pipeline = {
        _id: yield* newRecordId,
        kind,
        account_id: accountId,
        name: input.name,
        stages: input.stages,
        created_at: now,
        updated_at: now
      }
      yield* PipelineRepository.use((repo) => repo.save(pipeline))
      return pipeline
    }))
  }
)

/**
 * `PUT /api/{kind}/pipelines/{_id}`: replaces the pipeline's name and stages (the default one
 * included). Stages that records are in may be removed only with `move_to`, a stage (of this
 * pipeline as updated, or of another) the records move to. Needs `property-manage`.
 */
export const updatePipeline: (
  principal: Principal,
  kind: PipelineKind,
  id: string,
  body: unknown
) => Effect.Effect<Pipeline, Forbidden | NotFound | ValidationFailed, PipelineServices> = Effect.fn("updatePipeline")(
  function*(principal: Principal, kind: PipelineKind, id: string, body: unknown) {
    yield* authorize(principal, "property-manage")
    const accountId = principal.accountId
    return yield* (yield* Transactor).transaction(Effect.gen(function*() {
      yield* lockMatches(accountId, kind)
      const pipelines = yield* pipelinesNow(accountId, kind)
      const current = yield* findIn(pipelines, id)
      const input = yield* validatePipelineBody(kind, body, stagesOfOthers(pipelines, id), true)
      const kept = new Set(input.stages.map((s) => s.internal_name))
      const removed = stageNames(current).filter((s) => !kept.has(s))
      const now = yield* DateTime.now
      const next: Pipeline = {
        ...current,
        account_id: accountId,
        name: input.name,
        stages: input.stages,
        created_at: current.created_at ?? now,
        updated_at: now
      }
      const after = pipelines.map((p) => p._id === id ? next : p)
      const condition = { property: STAGE_PROPERTY[kind], operator: "in" as const, value: removed }
      const custom = yield* customOf(accountId, kind)
      const inUse = removed.length === 0 ? 0 : (yield* recordsWhere(accountId, kind, custom, condition, 1)).total
      const target = input.move_to === undefined ? undefined : pipelineOfStage(after, input.move_to)
      if (input.move_to !== undefined && target === undefined) {
        return yield* invalid("move_to", LaravelMessage.selectedInvalid("move_to"))
      }
      if (inUse > 0 && target === undefined) return yield* invalid("stages", stagesInUse(removed))
      yield* PipelineRepository.use((repo) => repo.save(next))
      if (inUse > 0 && target !== undefined) yield* moveRecords(accountId, kind, condition, target, input.move_to!, { userId: principal.userId, source: "api" })
      return next
    }))
  }
)

/**
 * `DELETE /api/{kind}/pipelines/{_id}`: deletes the pipeline. One that records are in needs
 * `moveTo`, a stage of another pipeline the records move to. The default pipeline cannot be
 * deleted ({@link Forbidden}). Needs `property-manage`.
 */
export const deletePipeline: (
  principal: Principal,
  kind: PipelineKind,
  id: string,
  moveTo: string | undefined
) => Effect.Effect<void, Forbidden | NotFound | ValidationFailed, PipelineServices> = Effect.fn("deletePipeline")(
  function*(principal: Principal, kind: PipelineKind, id: string, moveTo: string | undefined) {
    yield* authorize(principal, "property-manage")
    const accountId = principal.accountId
    yield* (yield* Transactor).transaction(Effect.gen(function*() {
      yield* lockMatches(accountId, kind)
      const pipelines = yield* pipelinesNow(accountId, kind)
      yield* findIn(pipelines, id)
      if (id === DEFAULT_PIPELINE_ID) return yield* forbidden(DEFAULT_PIPELINE_KEPT)
      const condition = { property: PIPELINE_PROPERTY, operator: "eq" as const, value: id }
      const custom = yield* customOf(accountId, kind)
      const inUse = (yield* recordsWhere(accountId, kind, custom, condition, 1)).total
      const others = pipelines.filter((p) => p._id !== id)
      const target = moveTo === undefined ? undefined : pipelineOfStage(others, moveTo)
      if (moveTo !== undefined && target === undefined) return yield* invalid("move_to", LaravelMessage.selectedInvalid("move_to"))
      if (inUse > 0 && target === undefined) return yield* invalid("_id", PIPELINE_IN_USE)
      yield* PipelineRepository.use((repo) => repo.delete(accountId, kind, id))
      if (inUse > 0 && target !== undefined) yield* moveRecords(accountId, kind, condition, target, moveTo!, { userId: principal.userId, source: "api" })
    }))
  }
)
