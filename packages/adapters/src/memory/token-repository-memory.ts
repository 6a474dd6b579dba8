import { type ApiToken, type StoredToken, TokenRepository } from "@wasl/core/Auth"
import { DateTime, Effect, Layer, Option } from "effect"
import { mapDelete, mapSet, MemoryStore, readStore, requireMembership, updateStore } from "./store.ts"

/** API tokens in the memory store (only the secret's hash is kept); the twin of `TokenRepositoryPg`. */
export const TokenRepositoryMemory: Layer.Layer<TokenRepository, never, MemoryStore> = Layer.effect(
  TokenRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore

    const create = Effect.fnUntraced(function*(input: Parameters<TokenRepository["Service"]["create"]>[0]) {
      const now = yield* DateTime.now
      return yield* updateStore(store, (state) => {
        requireMembership(state, input.accountId, input.userId, "api_tokens")
        const id = state.sequences.tokens
        const token: ApiToken = { id, name: input.name, abilities: [...input.abilities], last_used_at: null, created_at: now }
        const stored: StoredToken = { token, accountId: input.accountId, userId: input.userId, secretHash: input.secretHash }
        return [token, {
          ...state,
          sequences: { ...state.sequences, tokens: id + 1 },
          tokens: mapSet(state.tokens, id, stored)
        }] as const
      })
    })

    return TokenRepository.of({
      create,
      findById: (id) => readStore(store, (state) => Option.fromNullishOr(state.tokens.get(id))),
      list: (accountId, userId, page) =>
        readStore(store, (state) => {
          const tokens = [...state.tokens.values()]
            .filter((stored) => stored.accountId === accountId && stored.userId === userId)
            .map((stored) => stored.token)
            .sort((a, b) => a.id - b.id)
          return { items: tokens.slice(page.offset, page.offset + page.limit), total: tokens.length }
        }),
      revoke: (accountId, userId, id) =>
        updateStore(store, (state) => {
          const stored = state.tokens.get(id)
          if (stored === undefined || stored.accountId !== accountId || stored.userId !== userId) {
            return [false, state] as const
          }
          return [true, { ...state, tokens: mapDelete(state.tokens, id) }] as const
        }),
      touch: (id) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const stored = state.tokens.get(id)
            if (stored === undefined) return [undefined, state] as const
            const next: StoredToken = { ...stored, token: { ...stored.token, last_used_at: now } }
            return [undefined, { ...state, tokens: mapSet(state.tokens, id, next) }] as const
          }))
    })
  })
)
