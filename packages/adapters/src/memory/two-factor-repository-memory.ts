import { type TwoFactorState, TwoFactorRepository } from "@wasl/core/Auth"
import { DateTime, Effect, Layer, Option } from "effect"
import {
  mapSet,
  type MemoryState,
  MemoryStore,
  type MemoryStoreService,
  noTwoFactor,
  readStore,
  updateStore,
  type UserRow
} from "./store.ts"

/** The user's row changed by `f` when `when` holds of it: whether it did (a conditional UPDATE). */
const updateUser = (
  store: MemoryStoreService,
  userId: number,
  when: (row: UserRow) => boolean,
  f: (row: UserRow, now: DateTime.Utc) => UserRow
) =>
  Effect.flatMap(DateTime.now, (now) =>
    updateStore(store, (state: MemoryState) => {
      const row = state.users.get(userId)
      if (row === undefined || !when(row)) return [false, state] as const
      return [true, { ...state, users: mapSet(state.users, userId, f(row, now)) }] as const
    }))

const withUser = (row: UserRow, now: DateTime.Utc, confirmedAt: DateTime.Utc | null): UserRow["user"] => ({
  ...row.user,
  two_factor_confirmed_at: confirmedAt,
  updated_at: now
})

/** Users' two-factor state in the memory store (on the user rows); the twin of `TwoFactorRepositoryPg`. */
export const TwoFactorRepositoryMemory: Layer.Layer<TwoFactorRepository, never, MemoryStore> = Layer.effect(
  TwoFactorRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return TwoFactorRepository.of({
      find: (userId) =>
        readStore(store, (state) =>
          Option.map(Option.fromNullishOr(state.users.get(userId)), (row): TwoFactorState => ({
            ...row.twoFactor,
            confirmedAt: row.user.two_factor_confirmed_at
          }))),
      begin: (userId, sealedSecret) =>
        updateUser(store, userId, (row) => row.user.two_factor_confirmed_at === null, (row, now) => ({
          ...row,
          user: withUser(row, now, null),
          twoFactor: { ...noTwoFactor, sealedSecret }
        })),
      confirm: (userId, confirmation) =>
        updateUser(
          store,
          userId,
          (row) => row.user.two_factor_confirmed_at === null && row.twoFactor.sealedSecret === confirmation.sealedSecret,
          (row, now) => ({
            ...row,
            user: withUser(row, now, confirmation.confirmedAt),
            twoFactor: {
              sealedSecret: confirmation.sealedSecret,
              recoveryCodeHashes: confirmation.recoveryCodeHashes,
              lastUsedStep: confirmation.step
            }
          })
        ),
      useStep: (userId, step) =>
        updateUser(
          store,
          userId,
          (row) => row.twoFactor.lastUsedStep === null || row.twoFactor.lastUsedStep < step,
          (row) => ({ ...row, twoFactor: { ...row.twoFactor, lastUsedStep: step } })
        ),
      useRecoveryCode: (userId, codeHash) =>
        updateUser(
          store,
          userId,
          (row) => row.twoFactor.recoveryCodeHashes.includes(codeHash),
          (row) => ({
            ...row,
            twoFactor: {
              ...row.twoFactor,
              recoveryCodeHashes: row.twoFactor.recoveryCodeHashes.filter((hash) => hash !== codeHash)
            }
          })
        ),
      disable: (userId) =>
        Effect.asVoid(updateUser(store, userId, () => true, (row, now) => ({
          ...row,
          user: withUser(row, now, null),
          twoFactor: noTwoFactor
        })))
    })
  })
)
