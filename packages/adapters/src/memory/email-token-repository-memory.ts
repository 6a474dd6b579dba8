import { EmailTokenRepository } from "@wasl/core/Accounts"
import { Effect, Layer, Option } from "effect"
import { mapDelete, mapSet, MemoryStore, updateStore } from "./store.ts"

/**
 * The tokens of e-mail links in the memory store, by hash; the twin of `EmailTokenRepositoryPg`:
 * a new token replaces the user's token of the same purpose, and taking one removes it.
 */
export const EmailTokenRepositoryMemory: Layer.Layer<EmailTokenRepository, never, MemoryStore> = Layer.effect(
  EmailTokenRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return EmailTokenRepository.of({
      create: (token) =>
        updateStore(store, (state) => {
          if (!state.users.has(token.userId)) {
            throw new Error(`insert on table "email_tokens" violates foreign key constraint: user ${token.userId}`)
          }
          const kept = [...state.emailTokens].filter(([, row]) => row.userId !== token.userId || row.purpose !== token.purpose)
          return [undefined, { ...state, emailTokens: mapSet(new Map(kept), token.tokenHash, { ...token }) }] as const
        }),
      take: (tokenHash, purpose) =>
        updateStore(store, (state) => {
          const row = state.emailTokens.get(tokenHash)
          if (row === undefined || row.purpose !== purpose) return [Option.none(), state] as const
          return [Option.some(row), { ...state, emailTokens: mapDelete(state.emailTokens, tokenHash) }] as const
        })
    })
  })
)
