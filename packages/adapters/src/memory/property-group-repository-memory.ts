import { invalid } from "@wasl/core/Errors"
import { type PropertyGroupDefinition, PropertyGroupRepository } from "@wasl/core/Records"
import { LaravelMessageMore } from "@wasl/core/Wire"
import { Effect, Layer, Option, Result } from "effect"
import { byCreation, requireAccount } from "./property-repository-memory.ts"
import { type MemoryState, MemoryStore, modifyStore, readStore, updateStore } from "./store.ts"

/** Custom property groups in the memory store; the twin of `PropertyGroupRepositoryPg`. */
export const PropertyGroupRepositoryMemory: Layer.Layer<PropertyGroupRepository, never, MemoryStore> = Layer.effect(
  PropertyGroupRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const of = (state: MemoryState, accountId: number, kind: string) =>
      state.propertyGroups.filter((g) => g.account_id === accountId && g.kind === kind)

    return PropertyGroupRepository.of({
      list: (accountId, kind) => readStore(store, (state) => of(state, accountId, kind).sort(byCreation)),
      findById: (accountId, kind, id) =>
        readStore(store, (state) => Option.fromNullishOr(of(state, accountId, kind).find((g) => g._id === id))),
      insert: (group) =>
        modifyStore(store, (state) => {
          const accountId = requireAccount(state, group.account_id, "property_groups")
          if (state.propertyGroups.some((g) => g.account_id === accountId && g._id === group._id)) {
            throw new Error(`duplicate key value violates unique constraint "property_groups_pkey": ${group._id}`)
          }
          if (of(state, accountId, group.kind).some((g) => g.internal_name === group.internal_name)) {
            return Result.fail(invalid("internal_name", LaravelMessageMore.unique("internal_name")))
          }
          const stored: PropertyGroupDefinition = { ...group, builtin: false }
          return Result.succeed([undefined, { ...state, propertyGroups: [...state.propertyGroups, stored] }] as const)
        }),
      update: (group) =>
        updateStore(store, (state) => {
          const index = state.propertyGroups.findIndex((g) =>
            g.account_id === group.account_id && g.kind === group.kind && g._id === group._id
          )
          if (index < 0) return [false, state] as const
          const propertyGroups = [...state.propertyGroups]
          propertyGroups[index] = { ...state.propertyGroups[index]!, name: group.name, desc: group.desc, updated_at: group.updated_at }
          return [true, { ...state, propertyGroups }] as const
        }),
      delete: (accountId, kind, id) =>
        updateStore(store, (state) => {
          const propertyGroups = state.propertyGroups.filter((g) =>
            !(g.account_id === accountId && g.kind === kind && g._id === id)
          )
          return propertyGroups.length === state.propertyGroups.length
            ? [false, state] as const
            : [true, { ...state, propertyGroups }] as const
        }),
      internalNames: (accountId, kind) =>
        readStore(store, (state) => of(state, accountId, kind).sort(byCreation).map((g) => g.internal_name))
    })
  })
)
