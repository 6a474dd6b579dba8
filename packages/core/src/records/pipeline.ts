/**
 * Pipelines of deals and tickets: an ordered list of stages a record moves through.
 *
 * - Each account has one built-in pipeline per kind, `_id` `default`: the deal one holds the seven
 *   `deal_stage` options of the built-in property (so clients and records that know only those keep
 *   working), the ticket one `new`, `waiting`, `in_progress`, `closed`. It is a constant until the
 *   account changes it (then its stored row, `_id` `default`, stands in for it); it cannot be
 *   deleted. The account's own pipelines follow it, oldest first.
 * - A stage is named by its `internal_name`, unique among all the kind's pipelines of the account,
 *   so a stage names its pipeline (a `move_to` target needs nothing else). Its display name and
 *   place can change; the internal_name is what records hold.
 * - Deal stages carry a `probability` (0 to 1) and `won`; every stage carries `closed`.
 */
import { type DateTime, Schema } from "effect"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { DEAL_STAGE_OPTIONS, TICKET_STAGE_OPTIONS } from "./builtin-properties.ts"
import { LocalizedText } from "./property-definition.ts"

/** The kinds that have pipelines. */
export type PipelineKind = "deal" | "ticket"

/** The kinds that have pipelines, as a list. */
export const PIPELINE_KINDS: ReadonlyArray<PipelineKind> = ["deal", "ticket"]

/** Whether a kind has pipelines. */
export const isPipelineKind = (kind: string): kind is PipelineKind => kind === "deal" || kind === "ticket"

/** The `_id` of each kind's built-in pipeline, the one records are in unless told otherwise. */
export const DEFAULT_PIPELINE_ID = "default"

/** At most this many stages in a pipeline. */
export const MAX_PIPELINE_STAGES = 100

/** One stage of a pipeline, as stored and answered. */
export const PipelineStage: Schema.Struct<{
  readonly internal_name: Schema.String
  readonly name: typeof LocalizedText
  readonly probability: Schema.optionalKey<Schema.Finite>
  readonly closed: Schema.Boolean
  readonly won: Schema.optionalKey<Schema.Boolean>
}> = Schema.Struct({
  internal_name: Schema.String,
  name: LocalizedText,
  probability: Schema.optionalKey(Schema.Finite),
  closed: Schema.Boolean,
  won: Schema.optionalKey(Schema.Boolean)
}).annotate({
  identifier: "PipelineStage",
  description: "A stage: internal_name (what records hold), name {en, ar}, closed; for deals also probability (0 to 1) and won"
})
/** One stage of a pipeline. */
export type PipelineStage = typeof PipelineStage.Type

/** A pipeline of an account (or a kind's built-in one, `account_id` null, never stored). */
export interface Pipeline {
  /** `default` for the built-in pipeline, else a record id. */
  readonly _id: string
  /** Deals or tickets. */
  readonly kind: PipelineKind
  /** The account; null for the built-in pipeline as long as the account has not changed it. */
  readonly account_id: number | null
  /** Display names. */
  readonly name: LocalizedText
  /** The stages, in order. */
  readonly stages: ReadonlyArray<PipelineStage>
  /** Null for the unchanged built-in pipeline. */
  readonly created_at: DateTime.Utc | null
  /** Null for the unchanged built-in pipeline. */
  readonly updated_at: DateTime.Utc | null
}

const DEAL_PROBABILITIES: Readonly<Record<string, number>> = {
  appointment_scheduled: 0.2,
  qualified_to_buy: 0.4,
  presentation_scheduled: 0.6,
  decision_maker_bought_in: 0.8,
  contract_sent: 0.9,
  closed_won: 1,
  closed_lost: 0
}

/** Each kind's built-in pipeline, as an account has it until it changes it. */
export const BUILTIN_PIPELINES: { readonly [K in PipelineKind]: Pipeline } = {
  deal: {
    _id: DEFAULT_PIPELINE_ID,
    kind: "deal",
    account_id: null,
    name: { en: "Sales pipeline", ar: "مسار المبيعات" },
    stages: DEAL_STAGE_OPTIONS.map((o) => ({
      internal_name: o.internal_name,
      name: { en: o.en, ar: o.ar },
      probability: DEAL_PROBABILITIES[o.internal_name] ?? 0,
      closed: o.internal_name.startsWith("closed_"),
      won: o.internal_name === "closed_won"
    })),
    created_at: null,
    updated_at: null
  },
  ticket: {
    _id: DEFAULT_PIPELINE_ID,
    kind: "ticket",
    account_id: null,
    name: { en: "Support pipeline", ar: "مسار الدعم" },
    stages: TICKET_STAGE_OPTIONS.map((o) => ({
      internal_name: o.internal_name,
      name: { en: o.en, ar: o.ar },
      closed: o.internal_name === "closed"
    })),
    created_at: null,
    updated_at: null
  }
}

/**
 * A kind's pipelines as the account sees them, from its stored ones: the default first (its stored
 * row if the account changed it, else the built-in one), then the others in the order given.
 */
export const pipelinesOf = (kind: PipelineKind, stored: ReadonlyArray<Pipeline>): ReadonlyArray<Pipeline> => {
  const ownDefault = stored.find((p) => p._id === DEFAULT_PIPELINE_ID)
  return [ownDefault ?? BUILTIN_PIPELINES[kind], ...stored.filter((p) => p._id !== DEFAULT_PIPELINE_ID)]
}

/** The stage names of a pipeline, in order. */
export const stageNames = (pipeline: Pipeline): ReadonlyArray<string> => pipeline.stages.map((s) => s.internal_name)

/** The wire form of a pipeline, as the pipelines endpoints answer it. */
export interface PipelineJson {
  /** `default` for a kind's default pipeline, else the pipeline's record id. */
  readonly _id: string
  /** The account that owns it; null for a built-in default the account has not changed. */
  readonly account_id: number | null
  /** Its name in English and Arabic. */
  readonly name: LocalizedText
  /** Its stages, in order. */
  readonly stages: ReadonlyArray<PipelineStage>
  /** When it was stored; null for an unchanged built-in default. */
  readonly created_at: string | null
  /** When it last changed; null for an unchanged built-in default. */
  readonly updated_at: string | null
}

/** A pipeline's wire form. */
export const pipelineJson = (pipeline: Pipeline): PipelineJson => ({
  _id: pipeline._id,
  account_id: pipeline.account_id,
  name: pipeline.name,
  stages: pipeline.stages,
  created_at: pipeline.created_at === null ? null : formatWireTimestamp(pipeline.created_at),
  updated_at: pipeline.updated_at === null ? null : formatWireTimestamp(pipeline.updated_at)
})
