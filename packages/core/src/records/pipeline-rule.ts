/**
 * The pipeline rule of a deal's or ticket's write: the record is in one of the account's pipelines
 * of its kind (`pipeline`, the default one unless told), and its stage (`deal_stage`,
 * `ticket_stage`) is one of that pipeline's stages.
 *
 * - `pipeline` naming no pipeline of the account, or cleared: 422 on `pipeline`.
 * - A stage not of the record's pipeline: 422 on the stage key. Moving a record to another
 *   pipeline needs a stage of it in the same write (422 on the stage key otherwise).
 * - A ticket always has a stage: a new one without one starts in its pipeline's first stage, and
 *   clearing it is a 422. A deal may have none, as before pipelines.
 *
 * Every write of a record runs it (single calls, batches, imports), in the write's transaction.
 */
import { Result } from "effect"
import { type ValidationFailed } from "../errors.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { ErrorBag } from "./body-input.ts"
import { PIPELINE_PROPERTY, STAGE_PROPERTY } from "./builtin-properties.ts"
import { DEFAULT_PIPELINE_ID, type Pipeline, type PipelineKind, stageNames } from "./pipeline.ts"
import type { RecordPatch, StoredValue, StoredValues } from "./value-validation.ts"

/** Whether a write of a record of the kind sets its pipeline or its stage. */
export const writesPipeline = (kind: PipelineKind, write: RecordPatch): boolean =>
  Object.hasOwn(write, PIPELINE_PROPERTY) || Object.hasOwn(write, STAGE_PROPERTY[kind])

/**
 * The write with its pipeline and stage settled: `current` is the record's values before it (none
 * for a new record), `write` its validated values or patch, `pipelines` the account's pipelines of
 * the kind (pipeline.ts `pipelinesOf`). A new record's answer always holds its `pipeline`.
 */
export const settlePipeline = <W extends RecordPatch>(
  kind: PipelineKind,
  pipelines: ReadonlyArray<Pipeline>,
  current: StoredValues | undefined,
  write: W
): Result.Result<W, ValidationFailed> => {
  const stageKey = STAGE_PROPERTY[kind]
  const touchesPipeline = Object.hasOwn(write, PIPELINE_PROPERTY)
  const touchesStage = Object.hasOwn(write, stageKey)
  if (current !== undefined && !writesPipeline(kind, write)) return Result.succeed(write)

  const bag = new ErrorBag()
  const before = current === undefined ? undefined : textOf(current[PIPELINE_PROPERTY]) ?? DEFAULT_PIPELINE_ID
  const pipelineId = touchesPipeline ? textOf(write[PIPELINE_PROPERTY]) : before ?? DEFAULT_PIPELINE_ID
  if (pipelineId === undefined) {
    bag.add(PIPELINE_PROPERTY, LaravelMessage.required(PIPELINE_PROPERTY))
    return Result.fail(bag.toFailure())
  }
  const pipeline = pipelines.find((p) => p._id === pipelineId)
  if (pipeline === undefined) {
    bag.add(PIPELINE_PROPERTY, LaravelMessage.selectedInvalid(PIPELINE_PROPERTY))
    return Result.fail(bag.toFailure())
  }
  const moved = before !== undefined && pipelineId !== before
  if (moved && !touchesStage) {
    bag.add(stageKey, LaravelMessage.required(stageKey))
    return Result.fail(bag.toFailure())
  }
  const stage = touchesStage ? textOf(write[stageKey]) : textOf(current?.[stageKey])
  const settled: Record<string, StoredValue | null> = { ...write, [PIPELINE_PROPERTY]: pipelineId }
  if (stage === undefined) {
    if (kind === "ticket") {
      if (current !== undefined) bag.add(stageKey, LaravelMessage.required(stageKey))
      else settled[stageKey] = pipeline.stages[0]!.internal_name
    }
  } else if (!stageNames(pipeline).includes(stage)) bag.add(stageKey, LaravelMessage.selectedInvalid(stageKey))
  return bag.isEmpty ? Result.succeed(settled as W) : Result.fail(bag.toFailure())
}

const textOf = (value: StoredValue | null | undefined): string | undefined => typeof value === "string" ? value : undefined

/**
 * For a record whose pipeline or stage is gone (deleted while the record was in the trash): the
 * patch that puts it in the first stage of the default pipeline; none when its place still exists.
 */
export const rehomePatch = (
  kind: PipelineKind,
  pipelines: ReadonlyArray<Pipeline>,
  values: StoredValues
): RecordPatch | undefined => {
  const stageKey = STAGE_PROPERTY[kind]
  const pipeline = pipelines.find((p) => p._id === (textOf(values[PIPELINE_PROPERTY]) ?? DEFAULT_PIPELINE_ID))
  const stage = textOf(values[stageKey])
  if (pipeline !== undefined && (stage === undefined || stageNames(pipeline).includes(stage))) return undefined
  const home = pipelines.find((p) => p._id === DEFAULT_PIPELINE_ID) ?? pipelines[0]!
  return { [PIPELINE_PROPERTY]: home._id, [stageKey]: home.stages[0]!.internal_name }
}
