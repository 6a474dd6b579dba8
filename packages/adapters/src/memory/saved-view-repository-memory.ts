import { NO_CHOSEN_VIEWS, type ViewChoiceKind } from "@wasl/core/Accounts"
import { canSeeView, type SavedView, SavedViewRepository } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Option } from "effect"
import { requireAccount } from "./property-repository-memory.ts"
import { type MemoryState, MemoryStore, readStore, requireMembership, updateStore } from "./store.ts"

const byCreation = (a: SavedView, b: SavedView): number =>
  DateTime.toEpochMillis(a.created_at) - DateTime.toEpochMillis(b.created_at) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)

const findIn = (state: MemoryState, accountId: number, kind: string, id: string) =>
  state.savedViews.find((v) => v.account_id === accountId && v.kind === kind && v._id === id)

/** Saved views and the members' chosen ones in the memory store; the twin of `SavedViewRepositoryPg`. */
export const SavedViewRepositoryMemory: Layer.Layer<SavedViewRepository, never, MemoryStore> = Layer.effect(
  SavedViewRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return SavedViewRepository.of({
      listVisible: (accountId, kind, userId) =>
        readStore(store, (state) =>
          state.savedViews.filter((v) => v.account_id === accountId && v.kind === kind && canSeeView(v, userId)).sort(byCreation)),
      find: (accountId, kind, id) => readStore(store, (state) => Option.fromNullishOr(findIn(state, accountId, kind, id))),
      save: (view) =>
        updateStore(store, (state) => {
          requireAccount(state, view.account_id, "saved_views")
          const stored = findIn(state, view.account_id, view.kind, view._id)
          const next = stored === undefined ? view : { ...view, user_id: stored.user_id, created_at: stored.created_at }
          const savedViews = stored === undefined ? [...state.savedViews, next] : state.savedViews.map((v) => v === stored ? next : v)
          return [undefined, { ...state, savedViews }] as const
        }),
      delete: (accountId, kind, id) =>
        updateStore(store, (state) => {
          const stored = findIn(state, accountId, kind, id)
          if (stored === undefined) return [false, state] as const
          return [true, {
            ...state,
            savedViews: state.savedViews.filter((v) => v !== stored),
            viewChoices: state.viewChoices.filter((c) => !(c.accountId === accountId && c.kind === kind && c.viewId === id))
          }] as const
        }),
      chosen: (accountId, userId) =>
        readStore(store, (state) => {
          const chosen: Record<ViewChoiceKind, string | null> = { ...NO_CHOSEN_VIEWS }
          for (const choice of state.viewChoices) {
            if (choice.accountId !== accountId || choice.userId !== userId) continue
            const view = findIn(state, accountId, choice.kind, choice.viewId)
            if (view !== undefined && canSeeView(view, userId)) chosen[choice.kind] = view._id
          }
          return chosen
        }),
      choose: (accountId, userId, kind, viewId) =>
        updateStore(store, (state) => {
          requireMembership(state, accountId, userId, "saved_view_choices")
          const others = state.viewChoices.filter((c) => !(c.accountId === accountId && c.userId === userId && c.kind === kind))
          const keep = viewId !== null && findIn(state, accountId, kind, viewId) !== undefined
          return [undefined, { ...state, viewChoices: keep ? [...others, { accountId, userId, kind, viewId }] : others }] as const
        })
    })
  })
)
