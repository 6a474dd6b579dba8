import { type Pipeline, PipelineRepository } from "@wasl/core/Records"
import { DateTime, Effect, Layer } from "effect"
import { requireAccount } from "./property-repository-memory.ts"
import { MemoryStore, readStore, updateStore } from "./store.ts"

const byCreation = (a: Pipeline, b: Pipeline): number =>
  DateTime.toEpochMillis(a.created_at!) - DateTime.toEpochMillis(b.created_at!) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)

/** Stored pipelines in the memory store; the twin of `PipelineRepositoryPg`. */
export const PipelineRepositoryMemory: Layer.Layer<PipelineRepository, never, MemoryStore> = Layer.effect(
  PipelineRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const same = (p: Pipeline, accountId: number, kind: string, id: string) =>
      p.account_id === accountId && p.kind === kind && p._id === id
    return PipelineRepository.of({
      list: (accountId, kind) =>
        readStore(store, (state) => state.pipelines.filter((p) => p.account_id === accountId && p.kind === kind).sort(byCreation)),
      save: (pipeline) =>
        updateStore(store, (state) => {
          const accountId = requireAccount(state, pipeline.account_id, "pipelines")
          const index = state.pipelines.findIndex((p) => same(p, accountId, pipeline.kind, pipeline._id))
          const pipelines = [...state.pipelines]
          if (index < 0) pipelines.push(pipeline)
          else pipelines[index] = { ...pipeline, created_at: state.pipelines[index]!.created_at }
          return [undefined, { ...state, pipelines }] as const
        }),
      delete: (accountId, kind, id) =>
        updateStore(store, (state) => {
          const pipelines = state.pipelines.filter((p) => !same(p, accountId, kind, id))
          return pipelines.length === state.pipelines.length ? [false, state] as const : [true, { ...state, pipelines }] as const
        })
    })
  })
)
