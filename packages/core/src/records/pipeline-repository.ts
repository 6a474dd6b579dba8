/**
 * The account's stored pipelines of deals and tickets.
 *
 * Each kind's built-in pipeline is not stored until the account changes it (pipeline.ts
 * `pipelinesOf` merges it in); then it is stored under its `_id` `default`. Every method takes the
 * account and the kind and never sees a pipeline of another account or kind. `list` returns the
 * pipelines oldest first (`created_at`, then `_id`).
 */
import { Context, type Effect } from "effect"
import type { Pipeline, PipelineKind } from "./pipeline.ts"

/** What the PipelineRepository port offers (implement this to write an adapter). */
export interface PipelineRepositoryShape {
  /** The account's stored pipelines of the kind, oldest first. */
  readonly list: (accountId: number, kind: PipelineKind) => Effect.Effect<ReadonlyArray<Pipeline>>
  /**
   * Stores the pipeline (its `account_id` set): a new one, or in place of the stored one with its
   * `_id` (its `created_at` then kept).
   */
  readonly save: (pipeline: Pipeline) => Effect.Effect<void>
  /** Deletes the stored pipeline; false when there was none. */
  readonly delete: (accountId: number, kind: PipelineKind, id: string) => Effect.Effect<boolean>
}

const PipelineRepositoryBase: Context.ServiceClass<
  PipelineRepository,
  "@wasl/core/PipelineRepository",
  PipelineRepositoryShape
> = Context.Service<PipelineRepository, PipelineRepositoryShape>()("@wasl/core/PipelineRepository")

/** The account's stored pipelines of deals and tickets (a foreign id is not found). */
export class PipelineRepository extends PipelineRepositoryBase {}
