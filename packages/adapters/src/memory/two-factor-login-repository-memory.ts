import { TwoFactorLoginRepository } from "@wasl/core/Auth"
import { DateTime, Effect, Layer, Option } from "effect"
import { mapDelete, mapSet, MemoryStore, updateStore } from "./store.ts"

/** Logins waiting for their second factor in the memory store; the twin of `TwoFactorLoginRepositoryPg`. */
export const TwoFactorLoginRepositoryMemory: Layer.Layer<TwoFactorLoginRepository, never, MemoryStore> = Layer.effect(
  TwoFactorLoginRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return TwoFactorLoginRepository.of({
      create: (login) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            if (!state.users.has(login.userId)) {
              throw new Error(`insert on table "two_factor_logins" violates foreign key constraint: user ${login.userId}`)
            }
            if (state.twoFactorLogins.has(login.idHash)) {
              throw new Error(`duplicate key value violates unique constraint on "two_factor_logins": ${login.idHash}`)
            }
            const kept = [...state.twoFactorLogins].filter(([, row]) =>
              row.userId !== login.userId || DateTime.isGreaterThan(row.expiresAt, now)
            )
            const twoFactorLogins = mapSet(new Map(kept), login.idHash, { ...login, attempts: 0 })
            return [undefined, { ...state, twoFactorLogins }] as const
          })),
      claimAttempt: (idHash, maxAttempts) =>
        updateStore(store, (state) => {
          const row = state.twoFactorLogins.get(idHash)
          if (row === undefined || row.attempts >= maxAttempts) return [Option.none(), state] as const
          const counted = { ...row, attempts: row.attempts + 1 }
          return [Option.some(counted), { ...state, twoFactorLogins: mapSet(state.twoFactorLogins, idHash, counted) }] as const
        }),
      remove: (idHash) =>
        updateStore(store, (state) => [undefined, { ...state, twoFactorLogins: mapDelete(state.twoFactorLogins, idHash) }] as const),
      removeOfUser: (userId) =>
        updateStore(store, (state) => {
          const twoFactorLogins = new Map([...state.twoFactorLogins].filter(([, row]) => row.userId !== userId))
          return [undefined, { ...state, twoFactorLogins }] as const
        })
    })
  })
)
