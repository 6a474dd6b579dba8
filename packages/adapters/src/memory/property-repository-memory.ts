import { invalid } from "@wasl/core/Errors"
import { type PropertyDefinition, PropertyRepository } from "@wasl/core/Records"
import { LaravelMessageMore } from "@wasl/core/Wire"
import { DateTime, Effect, Layer, Option, Result } from "effect"
import { type MemoryState, MemoryStore, modifyStore, readStore, updateStore } from "./store.ts"

/** Oldest first: `created_at`, then `_id` (as the PG adapter orders). */
export const byCreation = <T extends { readonly created_at: DateTime.Utc; readonly _id: string }>(a: T, b: T): number =>
  DateTime.toEpochMillis(a.created_at) - DateTime.toEpochMillis(b.created_at) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)

/** The foreign key of every account-owned row: (account_id) → accounts. */
export const requireAccount = (state: MemoryState, accountId: number | null, table: string): number => {
  if (accountId === null || !state.accounts.has(accountId)) {
    throw new Error(`insert or update on table "${table}" violates foreign key constraint: account ${accountId}`)
  }
  return accountId
}

/** Custom property definitions in the memory store; the twin of `PropertyRepositoryPg`. */
export const PropertyRepositoryMemory: Layer.Layer<PropertyRepository, never, MemoryStore> = Layer.effect(
  PropertyRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const of = (state: MemoryState, accountId: number, kind: string) =>
      state.properties.filter((p) => p.account_id === accountId && p.kind === kind)

    return PropertyRepository.of({
      list: (accountId, kind) => readStore(store, (state) => of(state, accountId, kind).sort(byCreation)),
      findById: (accountId, kind, id) =>
        readStore(store, (state) => Option.fromNullishOr(of(state, accountId, kind).find((p) => p._id === id))),
      insert: (definition) =>
        modifyStore(store, (state) => {
          const accountId = requireAccount(state, definition.account_id, "properties")
          if (state.properties.some((p) => p.account_id === accountId && p._id === definition._id)) {
            throw new Error(`duplicate key value violates unique constraint "properties_pkey": ${definition._id}`)
          }
          if (of(state, accountId, definition.kind).some((p) => p.internal_name === definition.internal_name)) {
            return Result.fail(invalid("internal_name", LaravelMessageMore.unique("internal_name")))
          }
          const stored: PropertyDefinition = { ...definition, builtin: false, readOnly: false, required: false }
          return Result.succeed([undefined, { ...state, properties: [...state.properties, stored] }] as const)
        }),
      update: (definition) =>
        updateStore(store, (state) => {
          const index = state.properties.findIndex((p) =>
            p.account_id === definition.account_id && p.kind === definition.kind && p._id === definition._id
          )
          if (index < 0) return [false, state] as const
          const current = state.properties[index]!
          const { enum: _dropped, ...kept } = current
          const next: PropertyDefinition = {
            ...kept,
            type: definition.type,
            name: definition.name,
            desc: definition.desc,
            group_id: definition.group_id,
            ...(definition.enum === undefined ? {} : { enum: definition.enum }),
            updated_at: definition.updated_at
          }
          const properties = [...state.properties]
          properties[index] = next
          return [true, { ...state, properties }] as const
        }),
      delete: (accountId, kind, id) =>
        updateStore(store, (state) => {
          const properties = state.properties.filter((p) => !(p.account_id === accountId && p.kind === kind && p._id === id))
          return properties.length === state.properties.length
            ? [false, state] as const
            : [true, { ...state, properties }] as const
        }),
      countInGroup: (accountId, kind, groupId) =>
        readStore(store, (state) => of(state, accountId, kind).filter((p) => p.group_id === groupId).length),
      internalNames: (accountId, kind) =>
        readStore(store, (state) => of(state, accountId, kind).sort(byCreation).map((p) => p.internal_name))
    })
  })
)
