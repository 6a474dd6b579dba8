/**
 * The body of a pipeline create or update: `name` ({ en, ar }), `stages` (1 to
 * `MAX_PIPELINE_STAGES`, in order: `internal_name`, `name`, `closed`; for deals `probability`
 * from 0 to 1, required, and `won`, only on a closed stage), and on an update `move_to`, the stage
 * the records of removed stages move to. Stage internal_names are distinct and not taken by
 * another pipeline of the kind. Validated with Laravel's messages, every bad key at once.
 */
import { Effect, Predicate } from "effect"
import type { ValidationFailed } from "../errors.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { LaravelMessageMore } from "../validation/more-validation-messages.ts"
import { cleanInput, ErrorBag, isBlankInput, ownValue } from "./body-input.ts"
import { localizedText } from "./definition-validation.ts"
import { MAX_PIPELINE_STAGES, type PipelineKind, type PipelineStage } from "./pipeline.ts"
import { INTERNAL_NAME_PATTERN, type LocalizedText } from "./property-definition.ts"

/** A valid pipeline body. */
export interface PipelineInput {
  /** Display names. */
  readonly name: LocalizedText
  /** The stages, in order. */
  readonly stages: ReadonlyArray<PipelineStage>
  /** Where records of removed stages go (an update only). */
  readonly move_to: string | undefined
}

/** The 422 message on `stages.N.won` for a won stage that is not closed. */
export const wonNotClosed = (key: string): string => `The ${key.replaceAll("_", " ")} field can only be true on a closed stage.`

const flag = (bag: ErrorBag, stage: object, key: string, at: string): boolean => {
  const value = ownValue(stage, key)
  if (isBlankInput(value)) return false
  if (typeof value !== "boolean") bag.add(at, LaravelMessage.boolean(at))
  return value === true
}

const stageOf = (
  bag: ErrorBag,
  kind: PipelineKind,
  raw: unknown,
  at: string,
  seen: Set<string>,
  taken: ReadonlySet<string>
): PipelineStage | undefined => {
  if (!Predicate.isObject(raw)) {
    bag.add(at, LaravelMessage.array(at))
    return undefined
  }
  const nameKey = `${at}.internal_name`
  const internalName = ownValue(raw, "internal_name")
  if (isBlankInput(internalName)) bag.add(nameKey, LaravelMessage.required(nameKey))
  else if (typeof internalName !== "string") bag.add(nameKey, LaravelMessage.string(nameKey))
  else if (!INTERNAL_NAME_PATTERN.test(internalName)) bag.add(nameKey, LaravelMessage.regex(nameKey))
  else if (seen.has(internalName)) bag.add(nameKey, LaravelMessageMore.distinct(nameKey))
  else if (taken.has(internalName)) bag.add(nameKey, LaravelMessageMore.unique(nameKey))
  if (typeof internalName === "string") seen.add(internalName)
  const name = localizedText(bag, { [`${at}.name`]: ownValue(raw, "name") }, `${at}.name`, true)
  const closed = flag(bag, raw, "closed", `${at}.closed`)
  const probabilityKey = `${at}.probability`
  const probability = ownValue(raw, "probability")
  const wonKey = `${at}.won`
  if (kind === "ticket") {
    if (!isBlankInput(probability)) bag.add(probabilityKey, LaravelMessage.prohibited(probabilityKey))
    if (!isBlankInput(ownValue(raw, "won"))) bag.add(wonKey, LaravelMessage.prohibited(wonKey))
    return typeof internalName === "string" && name !== null ? { internal_name: internalName, name, closed } : undefined
  }
  if (isBlankInput(probability)) bag.add(probabilityKey, LaravelMessage.required(probabilityKey))
  else if (typeof probability !== "number" || !Number.isFinite(probability)) bag.add(probabilityKey, LaravelMessage.numeric(probabilityKey))
  else if (probability < 0) bag.add(probabilityKey, LaravelMessage.minNumeric(probabilityKey, 0))
  else if (probability > 1) bag.add(probabilityKey, LaravelMessage.maxNumeric(probabilityKey, 1))
  const won = flag(bag, raw, "won", wonKey)
  if (won && !closed) bag.add(wonKey, wonNotClosed(wonKey))
  return typeof internalName === "string" && name !== null && typeof probability === "number"
    ? { internal_name: internalName, name, probability, closed, won }
    : undefined
}

/**
 * Validates a pipeline body of the kind. `taken` holds the stage internal_names of the kind's
 * other pipelines; `update` allows `move_to` (a create refuses it).
 */
export const validatePipelineBody = (
  kind: PipelineKind,
  raw: unknown,
  taken: ReadonlySet<string>,
  update: boolean
): Effect.Effect<PipelineInput, ValidationFailed> =>
  Effect.suspend(() => {
    const cleaned = cleanInput(raw)
    const body: object = Predicate.isObject(cleaned) ? cleaned : {}
    const bag = new ErrorBag()
    const name = localizedText(bag, body, "name", true)
    const rawStages = ownValue(body, "stages")
    const stages: Array<PipelineStage> = []
    if (isBlankInput(rawStages)) bag.add("stages", LaravelMessage.required("stages"))
    else if (!Array.isArray(rawStages)) bag.add("stages", LaravelMessage.list("stages"))
    else if (rawStages.length > MAX_PIPELINE_STAGES) bag.add("stages", LaravelMessage.maxArray("stages", MAX_PIPELINE_STAGES))
    else {
      const seen = new Set<string>()
      rawStages.forEach((rawStage, i) => {
        const stage = stageOf(bag, kind, rawStage, `stages.${i}`, seen, taken)
        if (stage !== undefined) stages.push(stage)
      })
    }
    const moveTo = ownValue(body, "move_to")
    if (!isBlankInput(moveTo)) {
      if (!update) bag.add("move_to", LaravelMessage.prohibited("move_to"))
      else if (typeof moveTo !== "string") bag.add("move_to", LaravelMessage.string("move_to"))
    }
    if (!bag.isEmpty || name === null) return Effect.fail(bag.toFailure())
    return Effect.succeed({ name, stages, move_to: typeof moveTo === "string" && moveTo !== "" ? moveTo : undefined })
  })
